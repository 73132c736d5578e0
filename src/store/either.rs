//! A connection of either engine: [`Connected::either`] answers a [`Conn`], and
//! [`on_either!`] runs the same SQL text on whichever it holds, compiled per engine (no
//! `Any` conversion; why: docs/postgres.md, "One text for two engines, and why"). Dialect
//! differences branch on [`Conn::engine`] beside the SQL, both texts in full.

use std::pin::Pin;

use sqlx::pool::PoolConnection;
use sqlx::{PgConnection, Postgres, Sqlite, SqliteConnection, Transaction};

use super::postgres::Engine;

/// Rows read one at a time, from either engine (sqlx's boxed stream).
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

/// A store function's connection: plain, pooled or a transaction, of either engine.
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

/// Runs `$body` with `$c` bound to `$conn`'s connection, type-checked once per engine.
macro_rules! on_either {
    ($conn:expr, $c:ident => $body:expr) => {
        match $conn {
            $crate::store::either::Conn::Sqlite($c) => $body,
            $crate::store::either::Conn::Postgres($c) => $body,
        }
    };
}

pub(crate) use on_either;
