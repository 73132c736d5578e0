-- Each event's ledger entry as the ledger document shows it (issue 21): an entry never
-- changes once written (a correction is a new event with an entry of its own), so the
-- ledger of a long session is read from here in event order instead of folding the whole
-- session again. Written in the event's own transaction; append-only like the events.
-- Events stored before this table have no entry: their ledger is folded as before.
CREATE TABLE ledger_entries (
    event_id INTEGER PRIMARY KEY REFERENCES events (id),
    entry    TEXT    NOT NULL CHECK (json_valid(entry))
) STRICT;

CREATE TRIGGER ledger_entries_are_append_only_update BEFORE UPDATE ON ledger_entries
BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only: record a correction instead'); END;
CREATE TRIGGER ledger_entries_are_append_only_delete BEFORE DELETE ON ledger_entries
BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only: record a correction instead'); END;
