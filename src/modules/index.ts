import type { FastifyPluginAsync } from 'fastify';
import clientRoutes from './clients/clients.routes.ts';
import taskRoutes from './tasks/tasks.routes.ts';
import jobRoutes from './jobs/jobs.routes.ts';
import activityRoutes from './activities/activities.routes.ts';
import authRoutes from './auth/auth.routes.ts';
import contactRoutes from './contacts/contacts.routes.ts';
import clientGroupRoutes from './client-groups/client-groups.routes.ts';
import topicRoutes from './topics/topics.routes.ts';
import memberRoutes from './members/members.routes.ts';
import timeEntryRoutes from './time-entries/time-entries.routes.ts';
import projectRoutes from './projects/projects.routes.ts';
import projectTypeRoutes from './project-types/project-types.routes.ts';
import taskRelationRoutes from './task-relations/task-relations.routes.ts';
import clientMemberRoutes from './client-members/client-members.routes.ts';
import searchRoutes from './search/search.routes.ts';
import workflowRoleRoutes from './workflow-roles/workflow-roles.routes.ts';
import roleRoutes from './roles/roles.routes.ts';
import teamRoutes from './teams/teams.routes.ts';
import calendarRoutes from './calendar/calendar.routes.ts';
import webhookRoutes from './webhooks/webhooks.routes.ts';
import eventRoutes from './events/events.routes.ts';

/** Every v3 resource module; app.ts mounts them under /api/v3. */
export const v3Modules: FastifyPluginAsync[] = [activityRoutes, authRoutes, clientRoutes, contactRoutes, clientGroupRoutes, topicRoutes, memberRoutes, timeEntryRoutes, projectRoutes, projectTypeRoutes, taskRelationRoutes, clientMemberRoutes, searchRoutes, workflowRoleRoutes, roleRoutes, teamRoutes, calendarRoutes, webhookRoutes, eventRoutes, taskRoutes, jobRoutes];
