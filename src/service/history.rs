//! Nights past: club sessions' history facts kept as events are recorded, and the history,
//! player pages, leaderboard, titles, archiving, renames and merges read from them (never a
//! replay).

use std::collections::BTreeMap;

use crate::ids::ClubId;
use crate::ids::PersonId;
use crate::store::Connected;
use chrono::{DateTime, NaiveDate, Utc};

use super::Folds;
use crate::error::AppError;
use crate::format::{self, SessionDoc};
use crate::history::session_facts;
use crate::ids::SessionId;
use crate::rules::table::TITLE_MAX;
use crate::session::Fold;
use crate::store::history::{
    self as hs, HistoryFilter, HistoryRow, LeaderRow, NightRow, PersonRow, TotalsRow,
};
use crate::store::time::day_start;
use crate::store::{self};
use crate::store::{ReadPool, WritePool};

mod evenings;
pub use evenings::{Evening, evenings};

/// Sessions on one page of the history.
pub const PAGE: i64 = 20;
/// Nights drawn on a player's chart (the latest).
pub const CHART_NIGHTS: i64 = 30;

/// Refuses a name in `names` that looks like ([`crate::rules::table::look_alike`], TR39) a
/// name the club knows without being it in another case: Cyrillic "Аnn" cannot sit down
/// where Ann plays. Errors: [`AppError::Refused`] naming `field`.
pub async fn check_club_names(
    conn: &mut impl Connected,
    club: ClubId,
    names: impl Iterator<Item = &str>,
    field: &str,
) -> Result<(), AppError> {
    use crate::rules::table::{look_alike, name_key};
    let known = hs::people_with_names(conn, club).await?;
    let known: Vec<&str> = known
        .iter()
        .flat_map(|(_, shown, sat)| [shown.as_str(), sat.as_str()])
        .collect();
    for name in names.filter(|n| !crate::ledger::HOUSE.contains(n)) {
        let key = name_key(name);
        if known.iter().any(|k| name_key(k) == key) {
            continue;
        }
        if let Some(other) = known.iter().find(|k| look_alike(name, k)) {
            return Err(AppError::Refused(crate::format::Refusal::document(
                field,
                format!(
                    "{name} looks like {other}, a player of the club: write the name as the \
                     club knows it, or choose a name that does not look like it"
                ),
            )));
        }
    }
    Ok(())
}

/// After session `id` is imported into `club` (same transaction): its facts.
pub async fn after_import(
    conn: &mut impl Connected,
    id: SessionId,
    club: Option<ClubId>,
    doc: &SessionDoc,
    created_at: DateTime<Utc>,
) -> Result<(), AppError> {
    let Some(club) = club else { return Ok(()) };
    let fold = format::fold(doc)?;
    write_facts(conn, id, club, doc, &fold, created_at).await
}

async fn write_facts(
    conn: &mut impl Connected,
    id: SessionId,
    club: ClubId,
    doc: &SessionDoc,
    fold: &Fold,
    created_at: DateTime<Utc>,
) -> Result<(), AppError> {
    let facts = facts_of(id, doc, fold)?;
    hs::replace_session_facts(conn, id, club, &doc.game, created_at, &facts).await?;
    Ok(())
}

/// Session `id`'s history facts as `doc` folded into `fold` now stands. Errors:
/// [`AppError::Internal`] when the session no longer folds.
pub(super) fn facts_of(
    id: SessionId,
    doc: &SessionDoc,
    fold: &Fold,
) -> Result<crate::history::SessionFacts, AppError> {
    session_facts(
        fold,
        &doc.agreements,
        &doc.players,
        doc.opening_scores.as_ref(),
    )
    .map_err(|r| AppError::Internal(format!("session {id} no longer folds: {r}")))
}

/// Writes the facts of the club's sessions recorded before the history existed (a no-op
/// once done), each checked with [`super::checked::Checked`].
pub async fn backfill(pool: &WritePool, folds: &Folds, club: ClubId) -> Result<(), AppError> {
    // On the reader: once the backlog is empty, the pages never touch the writer.
    let missing = {
        let mut conn = pool.reader().acquire().await?;
        hs::backlog(&mut conn, club).await?
    };
    for id in missing {
        let mut write = super::checked::Checked::new(pool);
        loop {
            let loaded = super::load(pool, folds, id).await?;
            let Some(mut tx) = write.begin(&[(id, loaded.events())]).await? else {
                continue;
            };
            let (doc, fold) = (&loaded.doc, &loaded.fold);
            write_facts(&mut tx, id, club, doc, fold, loaded.created_at).await?;
            hs::done_backlog(&mut tx, id).await?;
            tx.commit().await?;
            break;
        }
    }
    Ok(())
}

/// The history list's filters, as typed: days (`2026-11-01`), `to` included, UTC.
#[derive(Debug, Clone, Default)]
pub struct HistoryQuery {
    /// Only this game id.
    pub game: Option<String>,
    /// Only sessions this person sat in.
    pub person: Option<PersonId>,
    /// From this day.
    pub from: Option<NaiveDate>,
    /// To this day, included.
    pub to: Option<NaiveDate>,
    /// The archived sessions instead.
    pub archived: bool,
    /// The page, from 1.
    pub page: i64,
}

/// One session in the history list with each player's result.
#[derive(Debug, Clone)]
pub struct HistoryEntry {
    /// The session.
    pub row: HistoryRow,
    /// The game's name ("Auction Pinochle"), or its id when no longer registered.
    pub game_name: String,
    /// Each player: person id, display name, net in cents, in seat order.
    pub results: Vec<(PersonId, String, i64)>,
}

/// A page of the club's history, and whether another follows. Errors:
/// [`AppError::BadRequest`] naming `to` when it is before `from`.
pub async fn history(
    pool: &ReadPool,
    club: ClubId,
    query: &HistoryQuery,
) -> Result<(Vec<HistoryEntry>, bool), AppError> {
    if let (Some(from), Some(to)) = (query.from, query.to)
        && to < from
    {
        return Err(AppError::BadRequest {
            field: "to".into(),
            message: "the last day comes before the first day".into(),
        });
    }
    let filter = HistoryFilter {
        game: query.game.clone(),
        person: query.person,
        from: query.from.map(day_start),
        before: query.to.and_then(|d| d.succ_opt()).map(day_start),
        archived: query.archived,
    };
    let page = query.page.max(1);
    let offset = (page - 1).saturating_mul(PAGE);
    let mut conn = pool.acquire().await?;
    let mut rows = hs::history(&mut conn, club, &filter, PAGE + 1, offset).await?;
    let more = rows.len() as i64 > PAGE;
    rows.truncate(PAGE as usize);
    let ids: Vec<SessionId> = rows.iter().map(|r| r.id).collect();
    let results = hs::results_of(&mut conn, &ids).await?;
    let entries = rows
        .into_iter()
        .map(|row| HistoryEntry {
            game_name: session_game_name(&row.game, &row.agreements),
            results: results
                .iter()
                .filter(|r| r.session_id == row.id)
                .map(|r| (r.person_id, r.name.clone(), r.net_cents))
                .collect(),
            row,
        })
        .collect();
    Ok((entries, more))
}

/// The game's name for an id.
pub fn game_name(id: &str) -> String {
    crate::registry::game(id).map_or_else(|| id.to_string(), |g| g.name.to_string())
}

/// What players call a session of game `id` under `agreements` (its stored JSON text):
/// poker by its variant ("Hold'em"), every other game by its name.
pub fn session_game_name(id: &str, agreements: &str) -> String {
    let agreements: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(agreements).unwrap_or_default();
    crate::registry::game(id).map_or_else(|| id.to_string(), |g| g.session_name(&agreements))
}

/// The club's people.
pub async fn people(pool: &ReadPool, club: ClubId) -> Result<Vec<PersonRow>, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(hs::people(&mut conn, club).await?)
}

async fn club_session(
    conn: &mut impl Connected,
    club: ClubId,
    id: SessionId,
) -> Result<(), AppError> {
    match store::clubs::session_club(conn, id).await? {
        Some(Some(c)) if c == club => Ok(()),
        _ => Err(AppError::NotFound(format!("there is no session {id}"))),
    }
}

/// Titles session `id` ("Thursday at Sal's"); blank clears. Errors: [`AppError::NotFound`];
/// [`AppError::BadRequest`] (field `title`, [`crate::rules::table::title`]).
pub async fn set_title(
    pool: &WritePool,
    club: ClubId,
    id: SessionId,
    title: &str,
) -> Result<(), AppError> {
    let title = crate::rules::table::title(title, TITLE_MAX, "a title").map_err(|message| {
        AppError::BadRequest {
            field: "title".into(),
            message,
        }
    })?;
    let mut tx = pool.begin_write().await?;
    club_session(&mut tx, club, id).await?;
    hs::set_title(&mut tx, id, (!title.is_empty()).then_some(title.as_str())).await?;
    tx.commit().await?;
    Ok(())
}

/// Archives session `id` (hidden, never deleted) or brings it back. Errors:
/// [`AppError::NotFound`].
pub async fn set_archived(
    pool: &WritePool,
    club: ClubId,
    id: SessionId,
    archived: bool,
) -> Result<(), AppError> {
    let mut tx = pool.begin_write().await?;
    club_session(&mut tx, club, id).await?;
    hs::set_archived(&mut tx, id, archived).await?;
    tx.commit().await?;
    Ok(())
}

/// A player's page: totals, bids by band, best night and the latest nights.
#[derive(Debug, Clone)]
pub struct PlayerStats {
    /// The person.
    pub person: PersonRow,
    /// The names they sat under.
    pub names: Vec<String>,
    /// Totals per game.
    pub by_game: Vec<TotalsRow>,
    /// Totals over every game (`game` empty).
    pub all: TotalsRow,
    /// Bids by band: (band, bids, made).
    pub bands: Vec<(i64, i64, i64)>,
    /// The best session (highest net).
    pub best: Option<NightRow>,
    /// Evenings played ([`evenings`]): a night's sessions count once, as do the sessions
    /// of one evening in no night.
    pub evenings: usize,
    /// The biggest night: the evening with the highest net over its sessions.
    pub best_evening: Option<Evening>,
    /// The latest sessions (at most [`CHART_NIGHTS`]), oldest first, within the range if any.
    pub nights: Vec<NightRow>,
    /// The latest evenings (at most [`CHART_NIGHTS`]), oldest first, within the range if
    /// any: the chart's points, one per evening however many sessions it had.
    pub chart: Vec<Evening>,
    /// Net in cents before the first of `chart` (all time, or within the range).
    pub before_cents: i64,
    /// Net in cents within the range, when one was asked for.
    pub range_net: Option<i64>,
}

/// Person `id`'s statistics, optionally within days `[from, to]`. Errors:
/// [`AppError::NotFound`].
pub async fn player(
    pool: &ReadPool,
    club: ClubId,
    id: PersonId,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
) -> Result<PlayerStats, AppError> {
    let mut conn = pool.acquire().await?;
    let person = hs::person(&mut conn, club, id)
        .await?
        .ok_or_else(|| AppError::NotFound(format!("there is no player {id}")))?;
    let names = hs::names_of(&mut conn, id).await?;
    let by_game = hs::totals_by_game(&mut conn, id).await?;
    let by_game = named_games(&mut conn, id, by_game).await?;
    let all = all_games(&by_game);
    let bands = hs::bands(&mut conn, id).await?;
    let played = crate::store::nights::played_of(&mut conn, club, id).await?;
    let all_evenings = evenings(&played);
    // The first of equals stays: the earliest evening with that net.
    let best_evening = all_evenings
        .iter()
        .fold(None, |b: Option<&Evening>, e| match b {
            Some(b) if b.net_cents >= e.net_cents => Some(b),
            _ => Some(e),
        });
    let (best, mut nights, range_net) = nights_of(&mut conn, club, &names, (from, to)).await?;
    nights.sort_by_key(|n| std::cmp::Reverse(n.session_id));
    let total = range_net.unwrap_or(all.net_cents);
    nights.truncate(CHART_NIGHTS as usize);
    nights.reverse();
    let (lo, hi) = (
        from.map(day_start),
        to.and_then(|d| d.succ_opt()).map(day_start),
    );
    let in_range: Vec<_> = played
        .into_iter()
        .filter(|p| lo.is_none_or(|lo| p.played_at >= lo) && hi.is_none_or(|hi| p.played_at < hi))
        .collect();
    let mut chart = evenings(&in_range);
    chart.drain(..chart.len().saturating_sub(CHART_NIGHTS as usize));
    let shown: i64 = chart.iter().map(|e| e.net_cents).sum();
    Ok(PlayerStats {
        person,
        names,
        by_game,
        all,
        bands,
        best,
        best_evening: best_evening.cloned(),
        evenings: all_evenings.len(),
        nights,
        chart,
        before_cents: total - shown,
        range_net,
    })
}

/// `by_game` with the games whose sessions are named by their agreements (a house game's
/// `name`, rules §1.12) split by those names, so a club's "Hearts" nights count together
/// and apart from its "Gin Rummy": such a row's `game` is then the name itself, which
/// [`game_name`] shows as it is. Other games are kept as they are.
async fn named_games(
    conn: &mut impl Connected,
    id: PersonId,
    by_game: Vec<TotalsRow>,
) -> Result<Vec<TotalsRow>, AppError> {
    let mut named = Vec::new();
    for row in by_game {
        let by_name = crate::registry::game(&row.game).is_some_and(|g| g.counted_by_session_name);
        if !by_name {
            named.push(row);
            continue;
        }
        let mut split: Vec<TotalsRow> = Vec::new();
        for named in hs::results_with_agreements(conn, id, &row.game).await? {
            let (name, t) = (
                session_game_name(&row.game, &named.agreements),
                named.totals,
            );
            match split.iter_mut().find(|s| s.game == name) {
                Some(s) => add_totals(s, &t),
                None => split.push(TotalsRow { game: name, ..t }),
            }
        }
        named.extend(split);
    }
    Ok(named)
}

/// Adds `t`'s counts and money into `into`.
fn add_totals(into: &mut TotalsRow, t: &TotalsRow) {
    into.nights += t.nights;
    into.net_cents = into.net_cents.saturating_add(t.net_cents);
    into.hands_bid += t.hands_bid;
    into.hands_made += t.hands_made;
    into.hands_set += t.hands_set;
    into.games_won += t.games_won;
    into.kitties_taken += t.kitties_taken;
}

/// A player's totals over every game, from his totals by game.
fn all_games(by_game: &[TotalsRow]) -> TotalsRow {
    let mut all = TotalsRow::default();
    for t in by_game {
        add_totals(&mut all, t);
    }
    all
}

/// The nights of the person who played under `names`: the best, those read (every one in
/// a range, else the latest [`CHART_NIGHTS`] per name), and the range's net in cents.
async fn nights_of(
    conn: &mut impl Connected,
    club: ClubId,
    names: &[String],
    (from, to): (Option<NaiveDate>, Option<NaiveDate>),
) -> Result<(Option<NightRow>, Vec<NightRow>, Option<i64>), AppError> {
    let ranged = from.is_some() || to.is_some();
    let (lo, hi) = (
        from.map(day_start),
        to.and_then(|d| d.succ_opt()).map(day_start),
    );
    let mut best: Option<NightRow> = None;
    let mut nights = Vec::new();
    let mut range_net = None;
    for name in names {
        if let Some(n) = hs::best_night(conn, club, name).await?
            && best.as_ref().is_none_or(|b| n.net_cents > b.net_cents)
        {
            best = Some(n);
        }
        // All time, only the latest nights are read: the total comes from the kept totals.
        let limit = if ranged { i64::MAX } else { CHART_NIGHTS };
        let these = hs::nights(conn, club, name, lo, hi, limit).await?;
        if ranged {
            let sum: i64 = these.iter().map(|n| n.net_cents).sum();
            range_net = Some(range_net.unwrap_or(0) + sum);
        }
        nights.extend(these);
    }
    Ok((best, nights, range_net))
}

/// The club's leaderboard.
pub async fn leaderboard(pool: &ReadPool, club: ClubId) -> Result<Vec<LeaderRow>, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(hs::leaderboard(&mut conn, club).await?)
}

/// Renames person `id`; seats keep the name sat under. Errors: [`AppError::NotFound`];
/// [`AppError::BadRequest`] naming `name` when it breaks
/// [`crate::rules::table::player_name`] or is (or looks like) another player's (merge them).
pub async fn rename(
    pool: &WritePool,
    club: ClubId,
    id: PersonId,
    name: &str,
) -> Result<(), AppError> {
    let bad = |message: &str| AppError::BadRequest {
        field: "name".into(),
        message: message.into(),
    };
    let name = crate::rules::table::player_name(name).map_err(|m| bad(&m))?;
    let mut tx = pool.begin_write().await?;
    hs::person(&mut tx, club, id)
        .await?
        .ok_or_else(|| AppError::NotFound(format!("there is no player {id}")))?;
    let people = hs::people(&mut tx, club).await?;
    let others = people
        .iter()
        .filter(|p| p.id != id)
        .map(|p| p.display_name.as_str());
    // Another player under the very name is taken for him too, unlike at a table.
    if let Some(other) = others
        .clone()
        .find(|o| *o == name)
        .or_else(|| crate::rules::table::look_alike_of(&name, others))
    {
        return Err(bad(&format!(
            "{name} looks like {other}, another player of the club; merge the two instead"
        )));
    }
    hs::rename(&mut tx, id, &name).await?;
    tx.commit().await?;
    Ok(())
}

/// Merges person `from` into `into` (two spellings of one person). Errors:
/// [`AppError::NotFound`]; [`AppError::BadRequest`] naming `into` when they are the same.
pub async fn merge(
    pool: &WritePool,
    club: ClubId,
    from: PersonId,
    into: PersonId,
) -> Result<(), AppError> {
    if from == into {
        return Err(AppError::BadRequest {
            field: "into".into(),
            message: "choose another player to merge with".into(),
        });
    }
    let mut tx = pool.begin_write().await?;
    for id in [from, into] {
        hs::person(&mut tx, club, id)
            .await?
            .ok_or_else(|| AppError::NotFound(format!("there is no player {id}")))?;
    }
    hs::merge(&mut tx, from, into).await?;
    tx.commit().await?;
    Ok(())
}

/// Recorded → display name for session `id`'s renamed or merged players (pages show these;
/// the API documents keep the recorded names).
pub async fn renamed_for_session(
    pool: &ReadPool,
    id: SessionId,
) -> Result<BTreeMap<String, String>, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(hs::renamed_for_session(&mut conn, id)
        .await?
        .into_iter()
        .collect())
}

/// Recorded name → display name for the club's renamed or merged names.
pub async fn renamed_in_club(
    pool: &ReadPool,
    club: ClubId,
) -> Result<BTreeMap<String, String>, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(hs::renamed_in_club(&mut conn, club)
        .await?
        .into_iter()
        .collect())
}

/// A short tag of `names` for a page's ETag (a rename changes a page without an event).
pub fn names_tag(names: &BTreeMap<String, String>) -> String {
    use std::hash::{Hash, Hasher};
    if names.is_empty() {
        return String::new();
    }
    let mut h = std::hash::DefaultHasher::new();
    names.hash(&mut h);
    format!("-n{:x}", h.finish())
}

/// The club's currency: its latest session's, "USD" when none (totals add cents across
/// sessions, all in one currency).
pub async fn club_currency(pool: &ReadPool, club: ClubId) -> Result<String, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(hs::club_currency(&mut conn, club)
        .await?
        .unwrap_or_else(|| "USD".into()))
}
