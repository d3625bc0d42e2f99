-- src/modules/content-templates/client-emails.quota.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- windowStart
to_timestamp(floor(extract(epoch from now()) / ${seconds}::int) * ${seconds}::int)

-- countClientMails
insert into client_mail_quota as q (company_id, window_start, mails)
  select ${ctx.companyId}::uuid, ${start}, ${mails}::int where ${mails}::int <= ${quota.mails}::int
on conflict (company_id) do update set window_start = greatest(q.window_start, excluded.window_start),
  mails = case when q.window_start >= excluded.window_start then q.mails else 0 end + excluded.mails
where case when q.window_start >= excluded.window_start then q.mails else 0 end + excluded.mails <= ${quota.mails}::int
returning mails

-- countClientMails
select coalesce(q.mails, 0) as used,
  ceil(extract(epoch from greatest(q.window_start, ${start}) + ${quota.windowSeconds}::int * interval '1 second'
    - now()) * 1000)::int as ms
from (select 1) one left join client_mail_quota q
  on q.company_id = ${ctx.companyId}::uuid and q.window_start >= ${start}
