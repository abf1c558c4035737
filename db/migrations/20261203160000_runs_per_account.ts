import { type Kysely, sql } from 'kysely'

// A cap on the runs one account has going across every worker (RUNS_PER_ACCOUNT; issue 42, item 3;
// decision 039). A worker starts a run's clock through this function: it takes a lock on the run's
// account, then counts the account's runs going with a fresh snapshot, so two workers starting two
// runs of one account at once cannot both see room for one. A run already taken (its job retried
// after a crash) is counted already and is never held back. `at_cap` is true when the run must wait.
//
// The index holds only the runs going (taken, not ended): an account's thousand queued runs cost
// the count nothing.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('runs_account_going_idx')
    .on('runs')
    .column('account_id')
    .where(sql<boolean>`status = 'running' and started_at is not null`)
    .execute()
  await sql`
    create function start_run_clock(p_run uuid, p_account_cap integer)
    returns table (id uuid, deadline_at timestamptz, at_cap boolean)
    language plpgsql volatile as $$
    declare
      v_account uuid;
      v_going integer;
      v_now timestamptz;
    begin
      select r.account_id into v_account from runs r
        where r.id = p_run and r.status = 'running' and r.started_at is null and r.time_limit_seconds is not null;
      if not found then return; end if;
      if p_account_cap > 0 then
        -- 1936029812 is "sext", as rate_limit_take's locks: Sextant's, apart from pg-boss's.
        perform pg_advisory_xact_lock(1936029812, hashtext('runs going of ' || v_account::text));
        select count(*)::integer into v_going from runs r
          where r.account_id = v_account and r.status = 'running' and r.started_at is not null;
        if v_going >= p_account_cap then
          id := p_run;
          at_cap := true;
          return next;
          return;
        end if;
      end if;
      -- After the lock: a run started now began after every run the count saw end.
      v_now := clock_timestamp();
      return query
        update runs r
          set started_at = v_now,
            deadline_at = least(r.deadline_at, v_now + make_interval(secs => r.time_limit_seconds))
          where r.id = p_run and r.status = 'running' and r.started_at is null
          returning r.id, r.deadline_at, false;
    end
    $$`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function start_run_clock(uuid, integer)`.execute(db)
  await db.schema.dropIndex('runs_account_going_idx').execute()
}
