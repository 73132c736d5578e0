//! A session's chart: each player's running balance, from a slimmed fold that passes the
//! stored events a page at a time ([`super::stream`]), never the session folded whole.

use std::collections::BTreeMap;

use super::stream::{PAGE, fold_row, no_longer_replays, read_page, start};
use crate::error::AppError;
use crate::format;
use crate::ids::SessionId;
use crate::session::Row;
use crate::session::window::SHEET_LINES;
use crate::store::ReadPool;

/// Each player's running balance through a session: a point at the start, after the ante
/// and after every event that moved money (the session's chart).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunningBalances {
    /// Each point's label: `start`, `ante`, `hand N`, or the event's type in words.
    pub labels: Vec<String>,
    /// Each player's balance at every point, in cents, players by name (not the kitty or
    /// the pot); as many points as labels.
    pub series: Vec<(String, Vec<i64>)>,
    /// The session's ISO currency code.
    pub currency: String,
}

/// The points so far, every account's (the kitty's too), as the fold's rows come.
struct Running {
    labels: Vec<String>,
    balance: BTreeMap<String, i64>,
    series: BTreeMap<String, Vec<i64>>,
}

impl Running {
    /// A point after `row` if it moved money; an account it moves first starts at zero.
    fn add(&mut self, row: &Row) {
        if row.postings.is_empty() {
            return;
        }
        let points = self.labels.len();
        self.labels.push(match (row.hand_number, row.index) {
            (Some(n), _) => format!("hand {n}"),
            (None, None) => "ante".into(),
            (None, Some(_)) => row.kind.words(),
        });
        for p in &row.postings {
            let balance = self.balance.entry(p.account.clone()).or_default();
            *balance = balance.saturating_add(p.amount.cents());
            self.series
                .entry(p.account.clone())
                .or_insert_with(|| vec![0; points]);
        }
        for (account, points) in &mut self.series {
            points.push(self.balance.get(account).copied().unwrap_or_default());
        }
    }
}

/// Session `id`'s [`RunningBalances`], folded one stored event at a time as the postings
/// CSV is: what is held is the points (a few bytes each) and a slimmed fold, never the
/// session's whole fold. Errors: [`AppError::NotFound`]; the store's; a session that no
/// longer replays.
pub async fn running_balances(pool: &ReadPool, id: SessionId) -> Result<RunningBalances, AppError> {
    let (header, _, through) = start(pool, id).await?;
    let mut fold = format::start(&header).map_err(|r| no_longer_replays(id, &r))?;
    let mut running = Running {
        labels: vec!["start".to_string()],
        balance: BTreeMap::new(),
        series: BTreeMap::new(),
    };
    fold.rows().iter().for_each(|row| running.add(row));
    let mut after = 0;
    while after < through {
        let upto = after.saturating_add(PAGE).min(through);
        read_page(pool, id, (after, upto), |row| {
            running.add(fold_row(&mut fold, id, &row)?);
            fold.slim_older(SHEET_LINES);
            Ok(())
        })
        .await?;
        after = upto;
    }
    let points = running.labels.len();
    let series = fold
        .balances()
        .as_map()
        .keys()
        .filter(|a| !crate::ledger::HOUSE.contains(&a.as_str()))
        .map(|p| {
            let balances = running.series.remove(p);
            (p.clone(), balances.unwrap_or_else(|| vec![0; points]))
        })
        .collect();
    Ok(RunningBalances {
        labels: running.labels,
        series,
        currency: header.currency,
    })
}
