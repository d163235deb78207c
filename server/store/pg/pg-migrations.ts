// Versioned schema for the PostgreSQL store (server/store/README.md, migration rule): numbered
// 1, 2, 3, … without gaps; a migration once committed is never edited, a change is the next
// number. PostgreSQL numbers its own migrations, apart from SQLite's: the engines share the
// contract, not the DDL. Types (docs/decisions-server.md §13): BIGINT for ms timestamps, seconds
// and counters, BYTEA for payloads kept byte for byte, TEXT (not JSONB) for stored JSON so the
// exact text comes back, as SQLite keeps it; every TEXT column is COLLATE "C", so ordering and
// comparing ids is by code point like SQLite's BINARY, whatever the database's locale.
import type { Pool } from 'pg';
import { inTransaction } from './pg-pool';

export interface PgMigration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export const PG_MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    name: 'initial schema: rooms, grants, review, operators, audit, agora relay',
    sql: /* sql */ `
      -- Counters handed out under a row lock inside the writing transaction, so a cursor or a seq
      -- is taken in commit order: a reader that has seen n has seen every smaller one.
      CREATE TABLE store_counters (
        name  TEXT COLLATE "C" PRIMARY KEY,
        value BIGINT NOT NULL
      );
      INSERT INTO store_counters (name, value) VALUES ('room_message_cursor', 0), ('relay_seq', 0);

      CREATE TABLE rooms (
        id               TEXT COLLATE "C" PRIMARY KEY,
        name             TEXT COLLATE "C" NOT NULL,
        moderation       TEXT COLLATE "C" NOT NULL CHECK (moderation IN ('auto', 'review')),
        created_at       BIGINT NOT NULL,
        message_count    BIGINT NOT NULL DEFAULT 0,
        last_activity_at BIGINT
      );

      -- cursor comes from store_counters.room_message_cursor (never reused, commit order).
      CREATE TABLE room_messages (
        cursor         BIGINT PRIMARY KEY,
        room_id        TEXT COLLATE "C" NOT NULL REFERENCES rooms (id),
        topic          TEXT COLLATE "C" NOT NULL,
        topic_kind     TEXT COLLATE "C" NOT NULL CHECK (topic_kind IN ('public', 'public_candidates', 'control', 'inbox', 'heartbeat', 'work')),
        topic_agent_id TEXT COLLATE "C",
        message_id     TEXT COLLATE "C",
        type           TEXT COLLATE "C",
        from_id        TEXT COLLATE "C",
        payload        BYTEA NOT NULL,
        received_at    BIGINT NOT NULL
      );
      CREATE INDEX room_messages_by_room ON room_messages (room_id, cursor);
      CREATE INDEX room_messages_by_type ON room_messages (room_id, type, cursor);
      CREATE INDEX room_messages_by_sender ON room_messages (room_id, from_id, cursor);
      CREATE INDEX room_messages_by_topic_agent ON room_messages (room_id, topic_agent_id, cursor);
      CREATE INDEX room_messages_by_topic_kind ON room_messages (room_id, topic_kind, cursor);

      -- AOR §7: one grant in force per (room, agent, task). allowed_types is a JSON array (text).
      CREATE TABLE mic_grants (
        room_id          TEXT COLLATE "C" NOT NULL,
        agent_id         TEXT COLLATE "C" NOT NULL,
        task_id          TEXT COLLATE "C" NOT NULL,
        max_messages     BIGINT NOT NULL CHECK (max_messages >= 0),
        allowed_types    TEXT COLLATE "C" NOT NULL,
        expires_at       BIGINT NOT NULL,
        spent            BIGINT NOT NULL DEFAULT 0,
        granted_at       BIGINT NOT NULL,
        grant_message_id TEXT COLLATE "C" NOT NULL,
        ended_at         BIGINT,
        end_reason       TEXT COLLATE "C",
        PRIMARY KEY (room_id, agent_id, task_id)
      );
      CREATE INDEX mic_grants_live_by_expiry ON mic_grants (expires_at) WHERE ended_at IS NULL;

      CREATE TABLE review_items (
        id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        room_id      TEXT COLLATE "C" NOT NULL,
        agent_id     TEXT COLLATE "C" NOT NULL,
        task_id      TEXT COLLATE "C" NOT NULL,
        message_id   TEXT COLLATE "C" NOT NULL,
        payload      BYTEA NOT NULL,
        submitted_at BIGINT NOT NULL,
        status       TEXT COLLATE "C" NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected', 'expired')),
        decided_by   TEXT COLLATE "C",
        decided_at   BIGINT,
        reason       TEXT COLLATE "C"
      );
      CREATE INDEX review_items_by_room ON review_items (room_id, status, id);

      CREATE TABLE agent_credentials (
        agent_id      TEXT COLLATE "C" PRIMARY KEY,
        password_hash TEXT COLLATE "C" NOT NULL,
        created_at    BIGINT NOT NULL
      );

      CREATE TABLE operators (
        did        TEXT COLLATE "C" PRIMARY KEY,
        role       TEXT COLLATE "C" NOT NULL CHECK (role IN ('facilitator', 'observer')),
        created_at BIGINT NOT NULL
      );

      -- Tokens are stored as SHA-256 hex only: a copy of the database logs nobody in.
      CREATE TABLE enrollments (
        token_hash TEXT COLLATE "C" PRIMARY KEY,
        role       TEXT COLLATE "C" NOT NULL CHECK (role IN ('facilitator', 'observer')),
        expires_at BIGINT NOT NULL
      );

      CREATE TABLE login_challenges (
        nonce      TEXT COLLATE "C" PRIMARY KEY,
        expires_at BIGINT NOT NULL
      );
      CREATE INDEX login_challenges_by_expiry ON login_challenges (expires_at);

      CREATE TABLE sessions (
        token_hash TEXT COLLATE "C" PRIMARY KEY,
        did        TEXT COLLATE "C" NOT NULL REFERENCES operators (did) ON DELETE CASCADE,
        expires_at BIGINT NOT NULL
      );
      CREATE INDEX sessions_by_did ON sessions (did);

      CREATE TABLE audit_log (
        id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        at         BIGINT NOT NULL,
        actor_did  TEXT COLLATE "C" NOT NULL,
        action     TEXT COLLATE "C" NOT NULL,
        room_id    TEXT COLLATE "C",
        message_id TEXT COLLATE "C",
        details    TEXT COLLATE "C" NOT NULL
      );
      CREATE INDEX audit_log_by_room ON audit_log (room_id, id);

      -- The Agora relay. The UNIQUE id is the replay memory and the idempotency key;
      -- seq comes from store_counters.relay_seq, taken under its row lock in the append.
      CREATE TABLE relay_envelopes (
        seq         BIGINT PRIMARY KEY,
        id          TEXT COLLATE "C" NOT NULL UNIQUE,
        kind        TEXT COLLATE "C" NOT NULL CHECK (kind IN ('event', 'registration')),
        digest      TEXT COLLATE "C" NOT NULL,
        type        TEXT COLLATE "C" NOT NULL,
        sender      TEXT COLLATE "C" NOT NULL,
        recipient   TEXT COLLATE "C",
        thread_id   TEXT COLLATE "C" NOT NULL,
        ts          BIGINT NOT NULL,
        received_at BIGINT NOT NULL,
        expires_at  BIGINT NOT NULL,
        json        TEXT COLLATE "C" NOT NULL
      );
      CREATE INDEX relay_envelopes_by_recipient ON relay_envelopes (recipient, seq) WHERE kind = 'event';
      CREATE INDEX relay_envelopes_by_sender ON relay_envelopes (sender, seq) WHERE kind = 'event';
      CREATE INDEX relay_envelopes_by_thread ON relay_envelopes (thread_id, seq) WHERE kind = 'event';

      CREATE TABLE relay_threads (
        thread_id   TEXT COLLATE "C" PRIMARY KEY,
        status      TEXT COLLATE "C" NOT NULL CHECK (status IN ('OPEN', 'PENDING', 'ACTIVE', 'COMPLETED', 'ERROR')),
        client      TEXT COLLATE "C",
        parties     TEXT COLLATE "C" NOT NULL,
        state       TEXT COLLATE "C" NOT NULL,
        version     BIGINT NOT NULL,
        opened_at   BIGINT NOT NULL,
        updated_at  BIGINT NOT NULL,
        deadline_at BIGINT
      );
      CREATE INDEX relay_threads_due ON relay_threads (deadline_at) WHERE deadline_at IS NOT NULL;
      CREATE INDEX relay_threads_by_update ON relay_threads (updated_at);

      CREATE TABLE directory_agents (
        did               TEXT COLLATE "C" PRIMARY KEY,
        manifest          TEXT COLLATE "C" NOT NULL,
        scope             TEXT COLLATE "C" NOT NULL CHECK (scope IN ('public', 'private')),
        authorized_agents TEXT COLLATE "C" NOT NULL,
        aor_agent_id      TEXT COLLATE "C",
        endpoint          TEXT COLLATE "C",
        registered_at     BIGINT NOT NULL,
        envelope_id       TEXT COLLATE "C" NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'negotiations and the transparency log; oacop ledger, bookings and agent state',
    sql: /* sql */ `
      -- RFC 0002 negotiations (SQLite migration 3): the signed state as JSON text, a version for
      -- compare-and-set, and the columns the console filters on.
      CREATE TABLE negotiations (
        id          TEXT COLLATE "C" PRIMARY KEY,
        status      TEXT COLLATE "C" NOT NULL,
        category    TEXT COLLATE "C" NOT NULL,
        party_a     TEXT COLLATE "C" NOT NULL,
        party_b     TEXT COLLATE "C" NOT NULL,
        state       TEXT COLLATE "C" NOT NULL,
        limits      TEXT COLLATE "C" NOT NULL,
        version     BIGINT NOT NULL,
        deadline_at BIGINT,
        log_index   BIGINT,
        created_at  BIGINT NOT NULL,
        updated_at  BIGINT NOT NULL
      );
      CREATE INDEX negotiations_due ON negotiations (deadline_at) WHERE deadline_at IS NOT NULL;
      CREATE INDEX negotiations_by_update ON negotiations (updated_at);
      CREATE INDEX negotiations_party_a ON negotiations (party_a);
      CREATE INDEX negotiations_party_b ON negotiations (party_b);

      -- A history only grows (decisions-negotiation.md §22): no row is deleted, no save goes back.
      CREATE FUNCTION negotiations_guard() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          RAISE EXCEPTION 'negotiations are kept: no row is deleted';
        END IF;
        IF NEW.version <= OLD.version OR NEW.id IS DISTINCT FROM OLD.id OR NEW.created_at IS DISTINCT FROM OLD.created_at
           OR (OLD.log_index IS NOT NULL AND NEW.log_index IS DISTINCT FROM OLD.log_index) THEN
          RAISE EXCEPTION 'a negotiation only moves forward';
        END IF;
        RETURN NEW;
      END
      $fn$;
      CREATE TRIGGER negotiations_guard BEFORE UPDATE OR DELETE ON negotiations
        FOR EACH ROW EXECUTE FUNCTION negotiations_guard();

      -- The transparency log: append-only and hash-chained, kept so by the engine whatever code
      -- runs against the database. An insert must be the next index and name the previous
      -- entry's hash; nothing is deleted; an update may change only the public view.
      CREATE TABLE negotiation_log (
        log_index      BIGINT PRIMARY KEY,
        prev_hash      TEXT COLLATE "C" NOT NULL,
        timestamp      TEXT COLLATE "C" NOT NULL,
        kind           TEXT COLLATE "C" NOT NULL,
        integrity_hash TEXT COLLATE "C" NOT NULL,
        entry_hash     TEXT COLLATE "C" NOT NULL UNIQUE,
        public         TEXT COLLATE "C" NOT NULL,
        negotiation_id TEXT COLLATE "C" NOT NULL
      );
      CREATE FUNCTION negotiation_log_guard() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          RAISE EXCEPTION 'negotiation_log is append-only';
        ELSIF TG_OP = 'INSERT' THEN
          -- Appends are serialized by the writer (an advisory lock), so max() is the head.
          IF NEW.log_index IS DISTINCT FROM (SELECT coalesce(max(log_index), -1) + 1 FROM negotiation_log)
             OR NEW.prev_hash IS DISTINCT FROM coalesce(
               (SELECT entry_hash FROM negotiation_log WHERE log_index = NEW.log_index - 1),
               'sha256-0000000000000000000000000000000000000000000000000000000000000000') THEN
            RAISE EXCEPTION 'negotiation_log: an entry must follow the head';
          END IF;
        ELSIF NEW.log_index IS DISTINCT FROM OLD.log_index OR NEW.prev_hash IS DISTINCT FROM OLD.prev_hash
           OR NEW.timestamp IS DISTINCT FROM OLD.timestamp OR NEW.kind IS DISTINCT FROM OLD.kind
           OR NEW.integrity_hash IS DISTINCT FROM OLD.integrity_hash OR NEW.entry_hash IS DISTINCT FROM OLD.entry_hash
           OR NEW.negotiation_id IS DISTINCT FROM OLD.negotiation_id THEN
          RAISE EXCEPTION 'negotiation_log: only the public view of an entry may change';
        END IF;
        RETURN NEW;
      END
      $fn$;
      CREATE TRIGGER negotiation_log_guard BEFORE INSERT OR UPDATE OR DELETE ON negotiation_log
        FOR EACH ROW EXECUTE FUNCTION negotiation_log_guard();
      -- TRUNCATE fires no row trigger: refuse it too.
      CREATE FUNCTION negotiation_log_no_truncate() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        RAISE EXCEPTION 'negotiation_log is append-only';
      END
      $fn$;
      CREATE TRIGGER negotiation_log_no_truncate BEFORE TRUNCATE ON negotiation_log
        FOR EACH STATEMENT EXECUTE FUNCTION negotiation_log_no_truncate();

      -- OACoP (SQLite migration 4): the local ledger standing in for OAPP (§6.2), calendars of
      -- agents and resources (§8.2), and each agent's own state of a thread or task.
      CREATE TABLE oacop_burns (
        tx_id     TEXT COLLATE "C" PRIMARY KEY,
        burned_by TEXT COLLATE "C" NOT NULL,
        amount    TEXT COLLATE "C" NOT NULL,
        burned_at BIGINT NOT NULL,
        used_for  TEXT COLLATE "C"
      );
      CREATE TABLE oacop_bookings (
        owner     TEXT COLLATE "C" NOT NULL,
        thread_id TEXT COLLATE "C" NOT NULL,
        start_ms  BIGINT NOT NULL,
        end_ms    BIGINT NOT NULL,
        revision  BIGINT NOT NULL,
        title     TEXT COLLATE "C" NOT NULL,
        booked_at BIGINT NOT NULL,
        PRIMARY KEY (owner, thread_id)
      );
      CREATE INDEX oacop_bookings_by_time ON oacop_bookings (owner, start_ms);
      CREATE TABLE oacop_agent_state (
        agent      TEXT COLLATE "C" NOT NULL,
        key        TEXT COLLATE "C" NOT NULL,
        state      TEXT COLLATE "C" NOT NULL,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (agent, key)
      );
    `,
  },
  {
    version: 3,
    name: 'external relays and negotiation services',
    sql: /* sql */ `
      -- As SQLite migration 5: services the console bridges besides its own
      -- (service-registry-store.ts); removing a service removes its cursors and envelopes.
      CREATE TABLE external_services (
        id         TEXT COLLATE "C" PRIMARY KEY,
        name       TEXT COLLATE "C" NOT NULL,
        base_url   TEXT COLLATE "C" NOT NULL,
        kind       TEXT COLLATE "C" NOT NULL CHECK (kind IN ('relay', 'negotiation')),
        read_only  BOOLEAN NOT NULL,
        origin     TEXT COLLATE "C" NOT NULL CHECK (origin IN ('env', 'console')),
        created_at BIGINT NOT NULL
      );
      CREATE TABLE external_cursors (
        service_id TEXT COLLATE "C" NOT NULL REFERENCES external_services (id) ON DELETE CASCADE,
        feed       TEXT COLLATE "C" NOT NULL,
        cursor     TEXT COLLATE "C" NOT NULL,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (service_id, feed)
      );
      CREATE TABLE external_envelopes (
        seq         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        service_id  TEXT COLLATE "C" NOT NULL REFERENCES external_services (id) ON DELETE CASCADE,
        envelope_id TEXT COLLATE "C" NOT NULL,
        thread_id   TEXT COLLATE "C",
        json        TEXT COLLATE "C" NOT NULL,
        digest      TEXT COLLATE "C",
        trusted     BOOLEAN NOT NULL,
        reason      TEXT COLLATE "C",
        received_at BIGINT NOT NULL,
        UNIQUE (service_id, envelope_id)
      );
      CREATE INDEX external_envelopes_by_thread ON external_envelopes (service_id, thread_id, seq);
      CREATE TABLE external_watched (
        did      TEXT COLLATE "C" PRIMARY KEY,
        added_at BIGINT NOT NULL
      );
      CREATE TABLE external_negotiations (
        service_id     TEXT COLLATE "C" NOT NULL REFERENCES external_services (id) ON DELETE CASCADE,
        negotiation_id TEXT COLLATE "C" NOT NULL,
        seen_at        BIGINT NOT NULL,
        PRIMARY KEY (service_id, negotiation_id)
      );
    `,
  },
  {
    version: 4,
    name: 'agent-topic index only for agent topics',
    sql: /* sql */ `
      -- SQLite migration 6: room-wide rows (all that moderation writes) have no topic agent and
      -- no filter can match them on it, so they stay out of the index.
      DROP INDEX room_messages_by_topic_agent;
      CREATE INDEX room_messages_by_topic_agent ON room_messages (room_id, topic_agent_id, cursor) WHERE topic_agent_id IS NOT NULL;
    `,
  },
  {
    version: 5,
    name: 'ledger balances',
    sql: /* sql */ `
      -- SQLite migration 7: a DID burns only what it holds. Units of 1e-8 credits, exact.
      CREATE TABLE oacop_balances (
        did        TEXT COLLATE "C" PRIMARY KEY,
        units      NUMERIC NOT NULL CHECK (units >= 0),
        updated_at BIGINT NOT NULL
      );
    `,
  },
  {
    version: 6,
    name: 'history retention per room',
    sql: /* sql */ `
      -- SQLite migration 8: NULL is no limit of that kind (decisions-server.md §25).
      ALTER TABLE rooms
        ADD COLUMN history_max_messages INTEGER CHECK (history_max_messages >= 1),
        ADD COLUMN history_max_age_days INTEGER CHECK (history_max_age_days >= 1);
    `,
  },
  {
    version: 7,
    name: 'operator display names',
    sql: /* sql */ `
      -- SQLite migration 9: NULL until given; the rule itself is checked before the store.
      ALTER TABLE operators ADD COLUMN name TEXT CHECK (name IS NULL OR octet_length(name) BETWEEN 1 AND 256);
    `,
  },
  {
    version: 8,
    name: 'webhook endpoints and their outbox',
    sql: /* sql */ `
      -- SQLite migration 10: outgoing webhooks (webhook-store.ts).
      CREATE TABLE webhook_endpoints (
        id         TEXT COLLATE "C" PRIMARY KEY,
        url        TEXT COLLATE "C" NOT NULL,
        events     TEXT[] NOT NULL,
        kinds      TEXT[] NOT NULL,
        secret     TEXT COLLATE "C" NOT NULL,
        origin     TEXT COLLATE "C" NOT NULL CHECK (origin IN ('env', 'console')),
        created_by TEXT COLLATE "C",
        created_at BIGINT NOT NULL,
        disabled   BOOLEAN NOT NULL DEFAULT false
      );
      CREATE TABLE webhook_events (
        id         TEXT COLLATE "C" PRIMARY KEY,
        type       TEXT COLLATE "C" NOT NULL,
        created_at BIGINT NOT NULL
      );
      CREATE TABLE webhook_deliveries (
        id              TEXT COLLATE "C" PRIMARY KEY,
        endpoint_id     TEXT COLLATE "C" NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        event_id        TEXT COLLATE "C" NOT NULL REFERENCES webhook_events (id),
        event_type      TEXT COLLATE "C" NOT NULL,
        payload         BYTEA NOT NULL,
        attempts        INTEGER NOT NULL DEFAULT 0,
        next_attempt_at BIGINT NOT NULL,
        state           TEXT COLLATE "C" NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
        last_status     INTEGER,
        last_error      TEXT COLLATE "C",
        lease           TEXT COLLATE "C",
        lease_until     BIGINT,
        created_at      BIGINT NOT NULL,
        updated_at      BIGINT,
        UNIQUE (endpoint_id, event_id)
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
      CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, created_at);
    `,
  },
  {
    version: 9,
    name: 'agent suspension and disconnect marker',
    sql: /* sql */ `
      -- SQLite migration 11 (decisions-server.md §62).
      ALTER TABLE agent_credentials ADD COLUMN suspended_at BIGINT;
      ALTER TABLE agent_credentials ADD COLUMN suspended_by TEXT COLLATE "C";
      ALTER TABLE agent_credentials ADD COLUMN suspend_reason TEXT COLLATE "C";
      ALTER TABLE agent_credentials ADD COLUMN disconnected_at BIGINT;
    `,
  },
  {
    version: 10,
    name: 'room activity indexes',
    sql: /* sql */ `
      -- SQLite migration 12: a room's rows by receive time, the rejects by receive time, and the
      -- candidate an approved copy or a reject names (decisions-server.md §64). SQLite's index
      -- holds the cursor as its rowid; here it is a column, so the newest candidate is one probe.
      CREATE INDEX room_messages_by_time ON room_messages (room_id, received_at);
      CREATE INDEX room_messages_rejects ON room_messages (received_at, room_id) WHERE type = 'reject';
      CREATE INDEX room_messages_candidate_ids ON room_messages (room_id, message_id, cursor) WHERE topic_kind = 'public_candidates';
    `,
  },
  {
    version: 11,
    name: 'room activity aggregates',
    sql: /* sql */ `
      -- decisions-server.md §73, as SQLite's migration 13: per UTC minute, kept by the statement
      -- that appends each history row. agent_id '' is a reject counted for nobody.
      CREATE TABLE room_activity_minutes (
        room_id  TEXT COLLATE "C" NOT NULL,
        minute   BIGINT NOT NULL,
        messages BIGINT NOT NULL,
        approved BIGINT NOT NULL,
        PRIMARY KEY (room_id, minute)
      );
      CREATE TABLE reject_minutes (
        room_id  TEXT COLLATE "C" NOT NULL,
        minute   BIGINT NOT NULL,
        reason   TEXT COLLATE "C" NOT NULL,
        agent_id TEXT COLLATE "C" NOT NULL,
        rejects  BIGINT NOT NULL,
        PRIMARY KEY (room_id, minute, reason, agent_id)
      );
      CREATE INDEX reject_minutes_by_minute ON reject_minutes (minute);
    `,
  },
  {
    version: 12,
    name: 'inbox dismissals and webhook retention',
    sql: /* sql */ `
      -- decisions-server.md §75, as SQLite's migration 14.
      CREATE TABLE inbox_dismissals (
        item_id      TEXT COLLATE "C" PRIMARY KEY,
        since        BIGINT NOT NULL,
        dismissed_by TEXT COLLATE "C" NOT NULL,
        dismissed_at BIGINT NOT NULL
      );
      CREATE INDEX inbox_dismissals_at ON inbox_dismissals (dismissed_at);
      CREATE INDEX webhook_deliveries_settled ON webhook_deliveries (created_at) WHERE state <> 'pending';
      CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries (event_id);
      CREATE INDEX webhook_events_by_age ON webhook_events (created_at);
    `,
  },
  {
    version: 13,
    name: 'activity log, invitations, server heartbeats',
    sql: /* sql */ `
      -- SQLite migration 13 (decisions-server.md §83, §84, §85).
      ALTER TABLE audit_log ADD COLUMN kind TEXT COLLATE "C";
      ALTER TABLE audit_log ADD COLUMN target TEXT COLLATE "C";
      UPDATE audit_log SET kind = CASE
        WHEN action = 'operator_enrolled' OR action LIKE 'operator.%' THEN 'operator'
        WHEN action LIKE 'agent.%' THEN 'agent'
        WHEN action LIKE 'review.%' THEN 'review'
        WHEN action LIKE 'room.%' THEN 'room' END;
      UPDATE audit_log SET target = CASE
        WHEN kind = 'operator' THEN coalesce(details::jsonb ->> 'did', actor_did)
        ELSE coalesce(details::jsonb ->> 'agentId', details::jsonb ->> 'agent_id') END;
      CREATE INDEX audit_log_by_actor ON audit_log (actor_did, id);
      CREATE INDEX audit_log_by_kind ON audit_log (kind, id);
      CREATE INDEX audit_log_by_target ON audit_log (target, id);
      ALTER TABLE enrollments ADD COLUMN created_at BIGINT;
      ALTER TABLE enrollments ADD COLUMN created_by TEXT COLLATE "C";
      ALTER TABLE enrollments ADD COLUMN used_at BIGINT;
      ALTER TABLE enrollments ADD COLUMN used_by TEXT COLLATE "C";
      CREATE INDEX enrollments_by_expiry ON enrollments (expires_at);
      CREATE TABLE server_heartbeats (
        instance TEXT COLLATE "C" PRIMARY KEY,
        base_url TEXT COLLATE "C" NOT NULL,
        pid      BIGINT NOT NULL,
        beat_at  BIGINT NOT NULL
      );
    `,
  },
  {
    version: 14,
    name: 'imported A2A agents',
    sql: /* sql */ `
      -- SQLite migration 16 (decisions-mcp.md §9–§11).
      CREATE TABLE a2a_imports (
        id              TEXT COLLATE "C" PRIMARY KEY,
        url             TEXT COLLATE "C" NOT NULL UNIQUE,
        name            TEXT NOT NULL,
        card            TEXT NOT NULL,
        imported_by     TEXT COLLATE "C" NOT NULL,
        imported_at     BIGINT NOT NULL,
        last_fetched_at BIGINT NOT NULL
      );
      CREATE INDEX a2a_imports_by_age ON a2a_imports (imported_at, id);
    `,
  },
];

/** Any fixed key: advisory locks are per database, so it serialises only Switchboards sharing one. */
const MIGRATION_LOCK_KEY = 0x5357_4d49_4752; // "SWMIGR"

export class PgSchemaTooNewError extends Error {
  override readonly name = 'PgSchemaTooNewError';
}

/**
 * Applies pending migrations in order, in one transaction under an advisory lock, with their
 * schema_migrations rows: several instances starting at once apply each migration once, and a
 * failure leaves the previous version intact. Returns the versions applied by this call.
 */
export async function migratePg(
  pool: Pool,
  migrations: readonly PgMigration[] = PG_MIGRATIONS,
  now = Date.now(),
): Promise<number[]> {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new Error(`Migration ${i} is numbered ${m.version}; versions must run 1, 2, 3, … without gaps.`);
  });
  const latest = migrations.length;
  return inTransaction(pool, async (client) => {
    // Taken before anything else, so the CREATE TABLE IF NOT EXISTS below cannot race either.
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    INTEGER PRIMARY KEY,
      name       TEXT NOT NULL,
      applied_at BIGINT NOT NULL
    )`);
    const { rows } = await client.query<{ current: number }>(
      'SELECT coalesce(max(version), 0)::int AS current FROM schema_migrations',
    );
    const current = rows[0]!.current;
    if (current > latest) {
      throw new PgSchemaTooNewError(
        `the database has schema version ${current}, newer than this Switchboard knows (${latest}); upgrade Switchboard`,
      );
    }
    const applied: number[] = [];
    for (const migration of migrations.slice(current)) {
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        now,
      ]);
      applied.push(migration.version);
    }
    return applied;
  });
}

export async function pgSchemaVersion(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ version: number }>(
    'SELECT coalesce(max(version), 0)::int AS version FROM schema_migrations',
  );
  return rows[0]!.version;
}
