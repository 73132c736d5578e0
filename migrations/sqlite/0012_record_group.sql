-- Twin of migrations/postgres/0012, which adds PostgreSQL's one-statement group commit
-- (a PL/pgSQL function). SQLite needs nothing: its group commit already sends a group as
-- two multi-statement queries (store::append). Kept so both engines' versions stay paired.
SELECT 1;
