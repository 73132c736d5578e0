//! A connection of either engine, and the one place the store's functions pick
//! the engine: [`Connected::either`] answers a [`Conn`], and [`on_either!`] runs the same
//! code, and so the same SQL text, on whichever connection it holds. Each arm is compiled
//! for its own engine's concrete types, so the SQLite arm costs one `match` over plain
//! SQLite code: no `Any` value conversion, no extra round trip or lock (docs/postgres.md,
//! "One text for two engines, and why", for why this and not functions generic over `sqlx::Database`).
//!
//! The few places where the two dialects differ are branched on [`Conn::engine`] next to
//! the SQL that needs it, as `match engine { Engine::Sqlite => .., Engine::Postgres => .. }`
//! between two texts, both written out in full.

use std::pin::Pin;

use sqlx::pool::PoolConnection;
use sqlx::{PgConnection, Postgres, Sqlite, SqliteConnection, Transaction};

use super::postgres::Engine;

/// Rows of type `T` read one at a time, from either engine (sqlx's own boxed stream, the
/// same type for both, so a function answering rows needs no wrapper of its own).
pub type Rows<'c, T> =
    Pin<Box<dyn tokio_stream::Stream<Item = Result<T, sqlx::Error>> + Send + 'c>>;

/// A borrowed connection of one of the two engines, for one call of a store function.
pub enum Conn<'c> {
    /// An SQLite connection (the writer's, a reader's, or a transaction's).
    Sqlite(&'c mut SqliteConnection),
    /// A PostgreSQL connection.
    Postgres(&'c mut PgConnection),
}

impl Conn<'_> {
    /// Which engine this connection speaks to: what a dialect branch matches on.
    pub fn engine(&self) -> Engine {
        match self {
            Conn::Sqlite(_) => Engine::Sqlite,
            Conn::Postgres(_) => Engine::Postgres,
        }
    }
}

/// What a store function takes as its connection: a plain connection, a pooled one or an
/// open transaction, of either engine (`&mut conn`, `&mut tx` or `&mut *tx`).
pub trait Connected: Send {
    /// The connection underneath, tagged with its engine.
    fn either(&mut self) -> Conn<'_>;
}

impl Connected for SqliteConnection {
    fn either(&mut self) -> Conn<'_> {
        Conn::Sqlite(self)
    }
}

impl Connected for PoolConnection<Sqlite> {
    fn either(&mut self) -> Conn<'_> {
        Conn::Sqlite(self)
    }
}

impl Connected for Transaction<'_, Sqlite> {
    fn either(&mut self) -> Conn<'_> {
        Conn::Sqlite(self)
    }
}

impl Connected for PgConnection {
    fn either(&mut self) -> Conn<'_> {
        Conn::Postgres(self)
    }
}

impl Connected for PoolConnection<Postgres> {
    fn either(&mut self) -> Conn<'_> {
        Conn::Postgres(self)
    }
}

impl Connected for Transaction<'_, Postgres> {
    fn either(&mut self) -> Conn<'_> {
        Conn::Postgres(self)
    }
}

/// Runs `$body` with `$c` bound to the connection inside `$conn` (a [`Conn`]): the same
/// tokens, type-checked once per engine, so one SQL text serves both.
macro_rules! on_either {
    ($conn:expr, $c:ident => $body:expr) => {
        match $conn {
            $crate::store::either::Conn::Sqlite($c) => $body,
            $crate::store::either::Conn::Postgres($c) => $body,
        }
    };
}

pub(crate) use on_either;
