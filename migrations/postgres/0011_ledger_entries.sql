-- PostgreSQL twin of migrations/sqlite/0011: each event's ledger entry as the ledger
-- document shows it, written in the event's own transaction; append-only like the events.
CREATE TABLE ledger_entries (
    event_id BIGINT PRIMARY KEY REFERENCES events (id),
    entry    TEXT   NOT NULL CHECK (sk_json_valid(entry))
);

CREATE TRIGGER ledger_entries_are_append_only_update BEFORE UPDATE ON ledger_entries
FOR EACH ROW
EXECUTE FUNCTION sk_append_only('ledger entries are append-only: record a correction instead');
CREATE TRIGGER ledger_entries_are_append_only_delete BEFORE DELETE ON ledger_entries
FOR EACH ROW
EXECUTE FUNCTION sk_append_only('ledger entries are append-only: record a correction instead');
CREATE TRIGGER ledger_entries_are_append_only_truncate BEFORE TRUNCATE ON ledger_entries
EXECUTE FUNCTION sk_append_only('ledger entries are append-only: record a correction instead');
