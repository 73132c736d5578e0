//! A club session's history facts in SQL: its status, each player's result and bids by
//! band, written whole or by an event's difference in the event's own transaction; the
//! club totals follow through the tables' triggers (migrations `0007` and `0010`).

use sqlx::{QueryBuilder, Sqlite, SqliteConnection};

use super::ensure_person;
use crate::history::{FactsDelta, PlayerResult, SessionFacts};

/// Rewrites what the history keeps of session `session_id` (owned by `club_id`, playing
/// `game`, created at `played_at`): its status, each player's results and bids by band.
/// The totals follow by trigger. Every name gets a person.
pub async fn replace_session_facts(
    conn: &mut SqliteConnection,
    session_id: i64,
    club_id: i64,
    game: &str,
    played_at: &str,
    facts: &SessionFacts,
) -> Result<(), sqlx::Error> {
    for delete in [
        "DELETE FROM session_results WHERE session_id = ?",
        "DELETE FROM session_bids WHERE session_id = ?",
        "DELETE FROM session_status WHERE session_id = ?",
    ] {
        sqlx::query(delete)
            .bind(session_id)
            .execute(&mut *conn)
            .await?;
    }
    // Everything anew: the whole facts as the difference from nothing.
    let everything = FactsDelta::between(&SessionFacts::default(), facts);
    let delta = FactsDelta {
        status: Some((facts.hands, facts.closed, facts.settled)),
        ..everything
    };
    apply_facts_delta(conn, session_id, club_id, game, played_at, &delta).await
}

/// Writes the difference `delta` of club session `session_id`'s history facts (in the
/// caller's transaction): the status, each changed player's result (a player new to the
/// session becomes one of the club's people and players) and each changed band. The club
/// totals follow through the tables' triggers. `game` and `played_at` are the session's.
pub async fn apply_facts_delta(
    conn: &mut SqliteConnection,
    session_id: i64,
    club_id: i64,
    game: &str,
    played_at: &str,
    delta: &FactsDelta,
) -> Result<(), sqlx::Error> {
    add_new_players(conn, club_id, delta).await?;
    let mut q = QueryBuilder::<Sqlite>::new("SELECT 1");
    push_facts_delta(&mut q, (session_id, club_id, game, played_at), delta);
    q.build().execute(&mut *conn).await?;
    Ok(())
}

/// Makes each player `delta` brings to the session for the first time one of club
/// `club_id`'s people and players (before its results are written: they name them).
pub async fn add_new_players(
    conn: &mut SqliteConnection,
    club_id: i64,
    delta: &FactsDelta,
) -> Result<(), sqlx::Error> {
    for (r, new) in &delta.results {
        if *new {
            ensure_person(conn, club_id, &r.player).await?;
            crate::store::clubs::add_player(conn, club_id, &r.player).await?;
        }
    }
    Ok(())
}

/// Pushes onto `q` the statements (each after a `;`) that write `delta` of a club session
/// (`at`: its id, club, game and creation time): the status, then every changed result and
/// every changed band in one upsert each, so that the whole difference travels to the
/// database thread with the query it ends (see [`crate::store::append`]). The players it
/// names must be the club's already ([`add_new_players`]).
pub fn push_facts_delta(
    q: &mut QueryBuilder<Sqlite>,
    at: (i64, i64, &str, &str),
    delta: &FactsDelta,
) {
    let (session_id, club_id, _, _) = at;
    if let Some((hands, closed, settled)) = delta.status {
        q.push(
            "; INSERT INTO session_status (session_id, club_id, hands, closed, settled) VALUES (",
        );
        q.separated(", ")
            .push_bind(session_id)
            .push_bind(club_id)
            .push_bind(hands)
            .push_bind(closed)
            .push_bind(settled);
        q.push(
            ") ON CONFLICT (session_id) DO UPDATE SET hands = excluded.hands, \
             closed = excluded.closed, settled = excluded.settled",
        );
    }
    push_results(q, at, &delta.results);
    push_bids(q, (session_id, club_id), &delta.bids);
}

/// Pushes the upsert of the changed `results` of a session (`at`: its id, club, game and
/// creation time), if any.
fn push_results(
    q: &mut QueryBuilder<Sqlite>,
    (session_id, club_id, game, played_at): (i64, i64, &str, &str),
    results: &[(PlayerResult, bool)],
) {
    if results.is_empty() {
        return;
    }
    q.push(
        "; INSERT INTO session_results (session_id, club_id, player, game, played_at, net_cents, \
         hands_bid, hands_made, hands_set, games_won, kitties_taken) ",
    );
    q.push_values(results, |mut row, (r, _)| {
        row.push_bind(session_id)
            .push_bind(club_id)
            .push_bind(&r.player)
            .push_bind(game)
            .push_bind(played_at)
            .push_bind(r.net_cents)
            .push_bind(r.hands_bid)
            .push_bind(r.hands_made)
            .push_bind(r.hands_set)
            .push_bind(r.games_won)
            .push_bind(r.kitties_taken);
    });
    q.push(
        " ON CONFLICT (session_id, player) DO UPDATE SET net_cents = excluded.net_cents, \
         hands_bid = excluded.hands_bid, hands_made = excluded.hands_made, \
         hands_set = excluded.hands_set, games_won = excluded.games_won, \
         kitties_taken = excluded.kitties_taken",
    );
}

/// Pushes the upsert of the changed bands `bids` (player, band, bids, made) of session
/// `session_id` of `club_id`, if any.
fn push_bids(
    q: &mut QueryBuilder<Sqlite>,
    (session_id, club_id): (i64, i64),
    bids: &[(String, i64, i64, i64)],
) {
    if bids.is_empty() {
        return;
    }
    q.push("; INSERT INTO session_bids (session_id, club_id, player, band, bids, made) ");
    q.push_values(bids, |mut row, (player, band, bids, made)| {
        row.push_bind(session_id)
            .push_bind(club_id)
            .push_bind(player)
            .push_bind(band)
            .push_bind(bids)
            .push_bind(made);
    });
    q.push(
        " ON CONFLICT (session_id, player, band) DO UPDATE SET bids = excluded.bids, made = excluded.made",
    );
}

/// What the history keeps of session `session_id` as stored: its status, each player's
/// result and bids by band (players by name), for a check against the session folded.
pub async fn stored_facts(
    conn: &mut SqliteConnection,
    session_id: i64,
) -> Result<SessionFacts, sqlx::Error> {
    let status: Option<(i64, bool, bool)> =
        sqlx::query_as("SELECT hands, closed, settled FROM session_status WHERE session_id = ?")
            .bind(session_id)
            .fetch_optional(&mut *conn)
            .await?;
    let rows: Vec<(String, i64, i64, i64, i64, i64, i64)> = sqlx::query_as(
        "SELECT player, net_cents, hands_bid, hands_made, hands_set, games_won, kitties_taken \
         FROM session_results WHERE session_id = ? ORDER BY player",
    )
    .bind(session_id)
    .fetch_all(&mut *conn)
    .await?;
    let bids: Vec<(String, i64, i64, i64)> =
        sqlx::query_as("SELECT player, band, bids, made FROM session_bids WHERE session_id = ?")
            .bind(session_id)
            .fetch_all(&mut *conn)
            .await?;
    let (hands, closed, settled) = status.unwrap_or_default();
    let players = rows
        .into_iter()
        .map(
            |(player, net_cents, hands_bid, hands_made, hands_set, games_won, kitties_taken)| {
                let bands = bids
                    .iter()
                    .filter(|b| b.0 == player)
                    .map(|b| (b.1, (b.2, b.3)))
                    .collect();
                PlayerResult {
                    player,
                    net_cents,
                    hands_bid,
                    hands_made,
                    hands_set,
                    games_won,
                    kitties_taken,
                    bands,
                }
            },
        )
        .collect();
    Ok(SessionFacts {
        hands,
        closed,
        settled,
        players,
    })
}

/// The club's totals per name and game as the triggers keep them: (player, game, nights,
/// net cents, hands bid, made, set, games won, kitties taken).
pub async fn player_totals_rows(
    conn: &mut SqliteConnection,
    club_id: i64,
) -> Result<Vec<(String, String, i64, i64, i64, i64, i64, i64, i64)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT player, game, nights, net_cents, hands_bid, hands_made, hands_set, games_won, \
         kitties_taken FROM player_totals WHERE club_id = ? AND nights > 0 ORDER BY player, game",
    )
    .bind(club_id)
    .fetch_all(conn)
    .await
}
