import { collectModules, type Registry, type ServiceModule } from '../platform/modules.ts';
import activities from './activities/index.ts';
import auth from './auth/index.ts';
import calendar from './calendar/index.ts';
import clientGroups from './client-groups/index.ts';
import clientMembers from './client-members/index.ts';
import clients from './clients/index.ts';
import contacts from './contacts/index.ts';
import events from './events/index.ts';
import jobs from './jobs/index.ts';
import members from './members/index.ts';
import projectTypes from './project-types/index.ts';
import projects from './projects/index.ts';
import roles from './roles/index.ts';
import search from './search/index.ts';
import taskRelations from './task-relations/index.ts';
import tasks from './tasks/index.ts';
import teams from './teams/index.ts';
import timeEntries from './time-entries/index.ts';
import topics from './topics/index.ts';
import webhooks from './webhooks/index.ts';
import workflowRoles from './workflow-roles/index.ts';

/** Every v3 resource module: adding a resource adds its line here. */
export const MODULES: readonly ServiceModule[] = [
  activities,
  auth,
  calendar,
  clientGroups,
  clientMembers,
  clients,
  contacts,
  events,
  jobs,
  members,
  projectTypes,
  projects,
  roles,
  search,
  taskRelations,
  tasks,
  teams,
  timeEntries,
  topics,
  webhooks,
  workflowRoles,
];

let registry: Registry | undefined;

/** What all modules bring (routes, events, samples, jobs, periodic work, seeders); the server, worker and CLI all start here. */
export function loadModules(): Registry {
  registry ??= collectModules(MODULES);
  return registry;
}
