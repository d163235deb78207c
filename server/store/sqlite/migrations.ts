// Versioned schema for the SQLite store. The rule (server/store/README.md): a migration, once
// released, is never edited; a change is a new entry with the next number. The pending
// migrations run in order inside one IMMEDIATE transaction together with their schema_migrations
// rows, so a crash leaves the schema at a released version, and two processes opening the same
// file (the server and the CLI) cannot both apply them.
import type Database from 'better-sqlite3';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: /* sql */ `
      -- Rooms are implicit in AOR (a topic names them), so appending a message creates its room.
      -- message_count and last_activity_at are kept by appendMessage in the same transaction,
      -- so listing rooms never counts a long history.
      CREATE TABLE rooms (
        id               TEXT PRIMARY KEY,
        name             TEXT NOT NULL,
        moderation       TEXT NOT NULL CHECK (moderation IN ('auto', 'review')),
        created_at       INTEGER NOT NULL,
        message_count    INTEGER NOT NULL DEFAULT 0,
        last_activity_at INTEGER
      ) STRICT;

      -- AUTOINCREMENT: a cursor is never reused, even after the newest row is deleted.
      CREATE TABLE room_messages (
        cursor         INTEGER PRIMARY KEY AUTOINCREMENT,
        room_id        TEXT NOT NULL REFERENCES rooms (id),
        topic          TEXT NOT NULL,
        topic_kind     TEXT NOT NULL CHECK (topic_kind IN ('public', 'public_candidates', 'control', 'inbox', 'heartbeat', 'work')),
        topic_agent_id TEXT,
        message_id     TEXT,
        type           TEXT,
        from_id        TEXT,
        payload        BLOB NOT NULL,
        received_at    INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX room_messages_by_room ON room_messages (room_id, cursor);
      CREATE INDEX room_messages_by_type ON room_messages (room_id, type, cursor);
      CREATE INDEX room_messages_by_sender ON room_messages (room_id, from_id, cursor);
      CREATE INDEX room_messages_by_topic_agent ON room_messages (room_id, topic_agent_id, cursor);
      CREATE INDEX room_messages_by_topic_kind ON room_messages (room_id, topic_kind, cursor);

      -- AOR §7: one grant in force per (room, agent, task). allowed_types is a JSON array.
      CREATE TABLE mic_grants (
        room_id          TEXT NOT NULL,
        agent_id         TEXT NOT NULL,
        task_id          TEXT NOT NULL,
        max_messages     INTEGER NOT NULL CHECK (max_messages >= 0),
        allowed_types    TEXT NOT NULL,
        expires_at       INTEGER NOT NULL,
        spent            INTEGER NOT NULL DEFAULT 0,
        granted_at       INTEGER NOT NULL,
        grant_message_id TEXT NOT NULL,
        ended_at         INTEGER,
        end_reason       TEXT,
        PRIMARY KEY (room_id, agent_id, task_id)
      ) STRICT;
      CREATE INDEX mic_grants_live_by_expiry ON mic_grants (expires_at) WHERE ended_at IS NULL;

      CREATE TABLE review_items (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        room_id      TEXT NOT NULL,
        agent_id     TEXT NOT NULL,
        task_id      TEXT NOT NULL,
        message_id   TEXT NOT NULL,
        payload      BLOB NOT NULL,
        submitted_at INTEGER NOT NULL,
        status       TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected', 'expired')),
        decided_by   TEXT,
        decided_at   INTEGER,
        reason       TEXT
      ) STRICT;
      CREATE INDEX review_items_by_room ON review_items (room_id, status, id);

      CREATE TABLE agent_credentials (
        agent_id      TEXT PRIMARY KEY,
        password_hash TEXT NOT NULL,
        created_at    INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE operators (
        did        TEXT PRIMARY KEY,
        role       TEXT NOT NULL CHECK (role IN ('facilitator', 'observer')),
        created_at INTEGER NOT NULL
      ) STRICT;

      -- Tokens are stored as SHA-256 hex only: a copy of the database logs nobody in.
      CREATE TABLE enrollments (
        token_hash TEXT PRIMARY KEY,
        role       TEXT NOT NULL CHECK (role IN ('facilitator', 'observer')),
        expires_at INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE login_challenges (
        nonce      TEXT PRIMARY KEY,
        expires_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX login_challenges_by_expiry ON login_challenges (expires_at);

      -- The role is read from operators on every lookup, so a role change or removal applies
      -- to sessions already open.
      CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        did        TEXT NOT NULL REFERENCES operators (did) ON DELETE CASCADE,
        expires_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX sessions_by_did ON sessions (did);

      CREATE TABLE audit_log (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        at         INTEGER NOT NULL,
        actor_did  TEXT NOT NULL,
        action     TEXT NOT NULL,
        room_id    TEXT,
        message_id TEXT,
        details    TEXT NOT NULL
      ) STRICT;
      CREATE INDEX audit_log_by_room ON audit_log (room_id, id);
    `,
  },
  {
    version: 2,
    name: 'agora relay, threads and directory',
    sql: /* sql */ `
      -- Every signed envelope the relay accepted. The UNIQUE id is the replay memory
      -- and the idempotency key, so both survive a restart. seq is the resume cursor: AUTOINCREMENT
      -- never reuses a value, and one writer commits in seq order.
      CREATE TABLE relay_envelopes (
        seq         INTEGER PRIMARY KEY AUTOINCREMENT,
        id          TEXT NOT NULL UNIQUE,
        kind        TEXT NOT NULL CHECK (kind IN ('event', 'registration')),
        digest      TEXT NOT NULL,
        type        TEXT NOT NULL,
        sender      TEXT NOT NULL,
        recipient   TEXT,
        thread_id   TEXT NOT NULL,
        ts          INTEGER NOT NULL,
        received_at INTEGER NOT NULL,
        expires_at  INTEGER NOT NULL,
        json        TEXT NOT NULL
      ) STRICT;
      CREATE INDEX relay_envelopes_by_recipient ON relay_envelopes (recipient, seq) WHERE kind = 'event';
      CREATE INDEX relay_envelopes_by_sender ON relay_envelopes (sender, seq) WHERE kind = 'event';
      CREATE INDEX relay_envelopes_by_thread ON relay_envelopes (thread_id, seq) WHERE kind = 'event';

      -- One row per thread, written in the same transaction as the envelope that changed it.
      CREATE TABLE relay_threads (
        thread_id   TEXT PRIMARY KEY,
        status      TEXT NOT NULL CHECK (status IN ('OPEN', 'PENDING', 'ACTIVE', 'COMPLETED', 'ERROR')),
        client      TEXT,
        parties     TEXT NOT NULL,
        state       TEXT NOT NULL,
        version     INTEGER NOT NULL,
        opened_at   INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL,
        deadline_at INTEGER
      ) STRICT;
      CREATE INDEX relay_threads_due ON relay_threads (deadline_at) WHERE deadline_at IS NOT NULL;
      CREATE INDEX relay_threads_by_update ON relay_threads (updated_at);

      -- The directory: the newest registration per DID (its envelope is in relay_envelopes).
      CREATE TABLE directory_agents (
        did               TEXT PRIMARY KEY,
        manifest          TEXT NOT NULL,
        scope             TEXT NOT NULL CHECK (scope IN ('public', 'private')),
        authorized_agents TEXT NOT NULL,
        aor_agent_id      TEXT,
        endpoint          TEXT,
        registered_at     INTEGER NOT NULL,
        envelope_id       TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 3,
    name: 'negotiations and the transparency log',
    sql: /* sql */ `
      -- RFC 0002 negotiations: the signed state as JSON (shared/negotiation/state.ts),
      -- a version for compare-and-set, and the columns the console filters on.
      CREATE TABLE negotiations (
        id          TEXT PRIMARY KEY,
        status      TEXT NOT NULL,
        category    TEXT NOT NULL,
        party_a     TEXT NOT NULL,
        party_b     TEXT NOT NULL,
        state       TEXT NOT NULL,
        limits      TEXT NOT NULL,
        version     INTEGER NOT NULL,
        deadline_at INTEGER,
        log_index   INTEGER,
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX negotiations_due ON negotiations (deadline_at) WHERE deadline_at IS NOT NULL;
      CREATE INDEX negotiations_by_update ON negotiations (updated_at);
      CREATE INDEX negotiations_party_a ON negotiations (party_a);
      CREATE INDEX negotiations_party_b ON negotiations (party_b);
      -- A history only grows (decisions-negotiation.md §22): no row is ever deleted, no save goes back.
      CREATE TRIGGER negotiations_no_delete BEFORE DELETE ON negotiations
        BEGIN SELECT RAISE(ABORT, 'negotiations are kept: no row is deleted'); END;
      CREATE TRIGGER negotiations_forward_only BEFORE UPDATE ON negotiations
        WHEN NEW.version <= OLD.version OR NEW.id IS NOT OLD.id OR NEW.created_at IS NOT OLD.created_at
          OR (OLD.log_index IS NOT NULL AND NEW.log_index IS NOT OLD.log_index)
        BEGIN SELECT RAISE(ABORT, 'a negotiation only moves forward'); END;

      -- The transparency log: append-only and hash-chained. An insert must be the next index and
      -- name the previous entry's hash; no row is deleted; an update may change only the public
      -- view (redaction, a later co-signature), never the link the entry hash covers.
      CREATE TABLE negotiation_log (
        log_index      INTEGER PRIMARY KEY,
        prev_hash      TEXT NOT NULL,
        timestamp      TEXT NOT NULL,
        kind           TEXT NOT NULL,
        integrity_hash TEXT NOT NULL,
        entry_hash     TEXT NOT NULL UNIQUE,
        public         TEXT NOT NULL,
        negotiation_id TEXT NOT NULL
      ) STRICT;
      CREATE TRIGGER negotiation_log_append BEFORE INSERT ON negotiation_log
        WHEN NEW.log_index IS NOT (SELECT coalesce(max(log_index), -1) + 1 FROM negotiation_log)
          OR NEW.prev_hash IS NOT coalesce(
            (SELECT entry_hash FROM negotiation_log WHERE log_index = NEW.log_index - 1),
            'sha256-0000000000000000000000000000000000000000000000000000000000000000')
        BEGIN SELECT RAISE(ABORT, 'negotiation_log: an entry must follow the head'); END;
      CREATE TRIGGER negotiation_log_no_delete BEFORE DELETE ON negotiation_log
        BEGIN SELECT RAISE(ABORT, 'negotiation_log is append-only'); END;
      CREATE TRIGGER negotiation_log_view_only BEFORE UPDATE ON negotiation_log
        WHEN NEW.log_index IS NOT OLD.log_index OR NEW.prev_hash IS NOT OLD.prev_hash
          OR NEW.timestamp IS NOT OLD.timestamp OR NEW.kind IS NOT OLD.kind
          OR NEW.integrity_hash IS NOT OLD.integrity_hash OR NEW.entry_hash IS NOT OLD.entry_hash
          OR NEW.negotiation_id IS NOT OLD.negotiation_id
        BEGIN SELECT RAISE(ABORT, 'negotiation_log: only the public view of an entry may change'); END;
    `,
  },
  {
    version: 4,
    name: 'oacop ledger, bookings and agent state',
    sql: /* sql */ `
      -- The local ledger standing in for OAPP (OACoP §6.2): a burn pays for one thread.
      CREATE TABLE oacop_burns (
        tx_id     TEXT PRIMARY KEY,
        burned_by TEXT NOT NULL,
        amount    TEXT NOT NULL,
        burned_at INTEGER NOT NULL,
        used_for  TEXT
      ) STRICT;

      -- Calendars of agents and resources (OACoP §8.2): one booking per owner and thread.
      CREATE TABLE oacop_bookings (
        owner     TEXT NOT NULL,
        thread_id TEXT NOT NULL,
        start_ms  INTEGER NOT NULL,
        end_ms    INTEGER NOT NULL,
        revision  INTEGER NOT NULL,
        title     TEXT NOT NULL,
        booked_at INTEGER NOT NULL,
        PRIMARY KEY (owner, thread_id)
      ) STRICT;
      CREATE INDEX oacop_bookings_by_time ON oacop_bookings (owner, start_ms);

      -- Each agent's own state of a thread or task (its revision rule survives a restart).
      CREATE TABLE oacop_agent_state (
        agent      TEXT NOT NULL,
        key        TEXT NOT NULL,
        state      TEXT NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (agent, key)
      ) STRICT;
    `,
  },
  {
    version: 5,
    name: 'external relays and negotiation services',
    sql: /* sql */ `
      -- Services the console bridges besides its own (service-registry-store.ts).
      CREATE TABLE external_services (
        id         TEXT PRIMARY KEY,
        name       TEXT NOT NULL,
        base_url   TEXT NOT NULL,
        kind       TEXT NOT NULL CHECK (kind IN ('relay', 'negotiation')),
        read_only  INTEGER NOT NULL CHECK (read_only IN (0, 1)),
        origin     TEXT NOT NULL CHECK (origin IN ('env', 'console')),
        created_at INTEGER NOT NULL
      ) STRICT;

      -- One cursor per long-poll of a relay (feed = 'recipient:<did>' or 'sender:<did>').
      CREATE TABLE external_cursors (
        service_id TEXT NOT NULL REFERENCES external_services (id) ON DELETE CASCADE,
        feed       TEXT NOT NULL,
        cursor     TEXT NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (service_id, feed)
      ) STRICT;

      -- Envelopes fetched from external relays; trusted = 1 only when every check passed.
      CREATE TABLE external_envelopes (
        seq         INTEGER PRIMARY KEY AUTOINCREMENT,
        service_id  TEXT NOT NULL REFERENCES external_services (id) ON DELETE CASCADE,
        envelope_id TEXT NOT NULL,
        thread_id   TEXT,
        json        TEXT NOT NULL,
        digest      TEXT,
        trusted     INTEGER NOT NULL CHECK (trusted IN (0, 1)),
        reason      TEXT,
        received_at INTEGER NOT NULL,
        UNIQUE (service_id, envelope_id)
      ) STRICT;
      CREATE INDEX external_envelopes_by_thread ON external_envelopes (service_id, thread_id, seq);

      CREATE TABLE external_watched (
        did      TEXT PRIMARY KEY,
        added_at INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE external_negotiations (
        service_id     TEXT NOT NULL REFERENCES external_services (id) ON DELETE CASCADE,
        negotiation_id TEXT NOT NULL,
        seen_at        INTEGER NOT NULL,
        PRIMARY KEY (service_id, negotiation_id)
      ) STRICT;
    `,
  },
  {
    version: 6,
    name: 'agent-topic index only for agent topics',
    sql: /* sql */ `
      -- Room-wide topics (public, public_candidates, control) have no topic agent, and a filter
      -- on topic_agent_id = ? never matches NULL; the planner still uses a partial index for it,
      -- the OR of the agent filter included. Moderation writes only room-wide rows, so each of
      -- its history rows updates four indexes, not five (docs/benchmarks.md, "Gateway").
      DROP INDEX room_messages_by_topic_agent;
      CREATE INDEX room_messages_by_topic_agent ON room_messages (room_id, topic_agent_id, cursor) WHERE topic_agent_id IS NOT NULL;
    `,
  },
  {
    version: 7,
    name: 'ledger balances',
    sql: /* sql */ `
      -- A DID burns only what it holds (OACoP §6.2, docs/decisions-oacop.md A6). Units of 1e-8
      -- credits as decimal text: SQLite has no exact decimals, so the arithmetic is a bigint.
      CREATE TABLE oacop_balances (
        did        TEXT PRIMARY KEY,
        units      TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 8,
    name: 'history retention per room',
    sql: /* sql */ `
      -- NULL: no limit of that kind; both NULL: the room keeps its whole history (decisions-server.md §25).
      ALTER TABLE rooms ADD COLUMN history_max_messages INTEGER CHECK (history_max_messages >= 1);
      ALTER TABLE rooms ADD COLUMN history_max_age_days INTEGER CHECK (history_max_age_days >= 1);
    `,
  },
  {
    version: 9,
    name: 'operator display names',
    sql: /* sql */ `
      -- NULL until the operator gives one; the 1–60 character rule is checked before the store
      -- (shared/contract/operator-name.ts), the length here is a last wall in bytes.
      ALTER TABLE operators ADD COLUMN name TEXT CHECK (name IS NULL OR length(CAST(name AS BLOB)) BETWEEN 1 AND 256);
    `,
  },
  {
    version: 10,
    name: 'webhook endpoints and their outbox',
    sql: /* sql */ `
      -- Outgoing webhooks (webhook-store.ts). events and kinds are JSON arrays of strings.
      CREATE TABLE webhook_endpoints (
        id         TEXT PRIMARY KEY,
        url        TEXT NOT NULL,
        events     TEXT NOT NULL,
        kinds      TEXT NOT NULL,
        secret     TEXT NOT NULL,
        origin     TEXT NOT NULL CHECK (origin IN ('env', 'console')),
        created_by TEXT,
        created_at INTEGER NOT NULL,
        disabled   INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1))
      ) STRICT;

      -- Every event id ever enqueued: the same event is never enqueued twice.
      CREATE TABLE webhook_events (
        id         TEXT PRIMARY KEY,
        type       TEXT NOT NULL,
        created_at INTEGER NOT NULL
      ) STRICT;

      -- The outbox: one row per delivery. lease/lease_until: the dispatcher sending it now.
      CREATE TABLE webhook_deliveries (
        id              TEXT PRIMARY KEY,
        endpoint_id     TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        event_id        TEXT NOT NULL REFERENCES webhook_events (id),
        event_type      TEXT NOT NULL,
        payload         BLOB NOT NULL,
        attempts        INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL,
        state           TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
        last_status     INTEGER,
        last_error      TEXT,
        lease           TEXT,
        lease_until     INTEGER,
        created_at      INTEGER NOT NULL,
        updated_at      INTEGER,
        UNIQUE (endpoint_id, event_id)
      ) STRICT;
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
      CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, created_at);
    `,
  },
  {
    version: 11,
    name: 'agent suspension and disconnect marker',
    sql: /* sql */ `
      -- decisions-server.md §62: a suspension (all three set, or none) and the "disconnect now"
      -- marker the broker compares with the one it saw at CONNECT.
      ALTER TABLE agent_credentials ADD COLUMN suspended_at INTEGER;
      ALTER TABLE agent_credentials ADD COLUMN suspended_by TEXT;
      ALTER TABLE agent_credentials ADD COLUMN suspend_reason TEXT;
      ALTER TABLE agent_credentials ADD COLUMN disconnected_at INTEGER;
    `,
  },
  {
    version: 12,
    name: 'room activity indexes',
    sql: /* sql */ `
      -- The health panel reads a room's last hour (decisions-server.md §64): its rows by receive
      -- time; the rejects of every room by receive time (rejects only, so the Agents screen's
      -- "rejects in the last hour" costs what was rejected); and the candidate an approved copy
      -- or a reject names, by message id (candidates only).
      CREATE INDEX room_messages_by_time ON room_messages (room_id, received_at);
      CREATE INDEX room_messages_rejects ON room_messages (received_at, room_id) WHERE type = 'reject';
      CREATE INDEX room_messages_candidate_ids ON room_messages (room_id, message_id) WHERE topic_kind = 'public_candidates';
    `,
  },
  {
    version: 13,
    name: 'room activity aggregates',
    sql: /* sql */ `
      -- decisions-server.md §73: what the health panel and the Agents screen read, kept per UTC
      -- minute (epoch ms of its start) by the transaction that appends each history row, so a
      -- read sums at most an hour of buckets. agent_id '' is a reject counted for nobody.
      CREATE TABLE room_activity_minutes (
        room_id  TEXT NOT NULL,
        minute   INTEGER NOT NULL,
        messages INTEGER NOT NULL,
        approved INTEGER NOT NULL,
        PRIMARY KEY (room_id, minute)
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE reject_minutes (
        room_id  TEXT NOT NULL,
        minute   INTEGER NOT NULL,
        reason   TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        rejects  INTEGER NOT NULL,
        PRIMARY KEY (room_id, minute, reason, agent_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX reject_minutes_by_minute ON reject_minutes (minute);
    `,
  },
  {
    version: 14,
    name: 'inbox dismissals and webhook retention',
    sql: /* sql */ `
      -- decisions-server.md §75: an operator's dismissal of an inbox item, kept while the item
      -- could come back (the item's since: a later fact under the same id shows again).
      CREATE TABLE inbox_dismissals (
        item_id      TEXT PRIMARY KEY,
        since        INTEGER NOT NULL,
        dismissed_by TEXT NOT NULL,
        dismissed_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX inbox_dismissals_at ON inbox_dismissals (dismissed_at);
      -- The sweep of settled deliveries and of event ids no delivery names any more, by age.
      CREATE INDEX webhook_deliveries_settled ON webhook_deliveries (created_at) WHERE state <> 'pending';
      CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries (event_id);
      CREATE INDEX webhook_events_by_age ON webhook_events (created_at);
    `,
  },
  {
    version: 15,
    name: 'activity log, invitations, server heartbeats',
    sql: /* sql */ `
      -- decisions-server.md §83: the audit log read across rooms, each filter an index probe.
      -- kind and target are derived once, when an entry is written (shared/contract/activity.ts).
      ALTER TABLE audit_log ADD COLUMN kind TEXT;
      ALTER TABLE audit_log ADD COLUMN target TEXT;
      UPDATE audit_log SET kind = CASE
        WHEN action = 'operator_enrolled' OR action LIKE 'operator.%' THEN 'operator'
        WHEN action LIKE 'agent.%' THEN 'agent'
        WHEN action LIKE 'review.%' THEN 'review'
        WHEN action LIKE 'room.%' THEN 'room' END;
      UPDATE audit_log SET target = CASE
        WHEN kind = 'operator' THEN coalesce(json_extract(details, '$.did'), actor_did)
        ELSE coalesce(json_extract(details, '$.agentId'), json_extract(details, '$.agent_id')) END;
      CREATE INDEX audit_log_by_actor ON audit_log (actor_did, id);
      CREATE INDEX audit_log_by_kind ON audit_log (kind, id);
      CREATE INDEX audit_log_by_target ON audit_log (target, id);
      -- §84: who made a link and when; a used link is marked, not deleted, so it can say "used".
      ALTER TABLE enrollments ADD COLUMN created_at INTEGER;
      ALTER TABLE enrollments ADD COLUMN created_by TEXT;
      ALTER TABLE enrollments ADD COLUMN used_at INTEGER;
      ALTER TABLE enrollments ADD COLUMN used_by TEXT;
      CREATE INDEX enrollments_by_expiry ON enrollments (expires_at);
      -- §85: a running server's sign of life, so the CLI knows which store a server uses.
      CREATE TABLE server_heartbeats (
        instance TEXT PRIMARY KEY,
        base_url TEXT NOT NULL,
        pid      INTEGER NOT NULL,
        beat_at  INTEGER NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 16,
    name: 'imported A2A agents',
    sql: /* sql */ `
      -- decisions-mcp.md §9–§11: outside A2A agents imported by their Agent Card URL, one row per URL.
      CREATE TABLE a2a_imports (
        id              TEXT PRIMARY KEY,
        url             TEXT NOT NULL UNIQUE,
        name            TEXT NOT NULL,
        card            TEXT NOT NULL,
        imported_by     TEXT NOT NULL,
        imported_at     INTEGER NOT NULL,
        last_fetched_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX a2a_imports_by_age ON a2a_imports (imported_at, id);
    `,
  },
];

export class SchemaTooNewError extends Error {
  override readonly name = 'SchemaTooNewError';
}

/** Applies pending migrations in order; returns the versions applied by this call. */
export function migrate(
  db: Database.Database,
  migrations: readonly Migration[] = MIGRATIONS,
  now = Date.now(),
): number[] {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new Error(`Migration ${i} is numbered ${m.version}; versions must run 1, 2, 3, … without gaps.`);
  });
  const latest = migrations.length;
  const run = db.transaction((): number[] => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    INTEGER PRIMARY KEY,
      name       TEXT NOT NULL,
      applied_at INTEGER NOT NULL
    ) STRICT`);
    const { current } = db.prepare('SELECT coalesce(max(version), 0) AS current FROM schema_migrations').get() as {
      current: number;
    };
    if (current > latest) {
      throw new SchemaTooNewError(
        `the database has schema version ${current}, newer than this Switchboard knows (${latest}); upgrade Switchboard`,
      );
    }
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    const applied: number[] = [];
    for (const migration of migrations.slice(current)) {
      db.exec(migration.sql);
      record.run(migration.version, migration.name, now);
      applied.push(migration.version);
    }
    return applied;
  });
  return run.immediate();
}

export function schemaVersion(db: Database.Database): number {
  const row = db.prepare('SELECT coalesce(max(version), 0) AS version FROM schema_migrations').get() as {
    version: number;
  };
  return row.version;
}
