//! A session's chart: each player's running balance, from its stored ledger entries a page
//! at a time ([`super::stream`]): no rules run, and what is held is the points.

use std::collections::BTreeMap;

use super::stream::{NumberedEntries, PAGE, entries_stored, read_page, session_header};
use crate::error::AppError;
use crate::format::LedgerEvent;
use crate::ids::SessionId;
use crate::ledger::Posting;
use crate::service::{self, Folds};
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

/// The points so far, every account's (the kitty's too), entry by entry.
struct Running {
    labels: Vec<String>,
    balance: BTreeMap<String, i64>,
    series: BTreeMap<String, Vec<i64>>,
}

impl Running {
    /// A point after ledger entry `seq` of type `kind` (hand `hand`), if its `postings` move
    /// money; an account they move first starts at zero.
    fn add(&mut self, (seq, kind, hand): (usize, &str, Option<usize>), postings: &[Posting]) {
        if postings.is_empty() {
            return;
        }
        let points = self.labels.len();
        self.labels.push(match (hand, seq) {
            (Some(n), _) => format!("hand {n}"),
            (None, 0) => "ante".into(),
            (None, _) => kind.replace('_', " "),
        });
        for p in postings {
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

    /// The chart of `accounts` (the session's, by name: the kitty and the pot left out).
    fn chart(mut self, accounts: Vec<String>, currency: String) -> RunningBalances {
        let points = self.labels.len();
        let series = accounts
            .into_iter()
            .filter(|a| !crate::ledger::HOUSE.contains(&a.as_str()))
            .map(|p| {
                let balances = self.series.remove(&p);
                (p, balances.unwrap_or_else(|| vec![0; points]))
            })
            .collect();
        RunningBalances {
            labels: self.labels,
            series,
            currency,
        }
    }
}

/// Session `id`'s [`RunningBalances`] from its stored ledger entries, read a page at a
/// time up to the event count of its cached state, whose accounts are the players. A session with an event stored before
/// entries were kept is charted from its fold. Errors: [`AppError::NotFound`]; the
/// store's; a session that no longer replays.
pub async fn running_balances(
    pool: &ReadPool,
    folds: &Folds,
    id: SessionId,
) -> Result<RunningBalances, AppError> {
    let header = {
        let mut conn = pool.acquire().await?;
        session_header(&mut conn, id).await?.0
    };
    let (through, accounts) = service::accounts(pool, folds, id).await?;
    let through = i64::try_from(through).unwrap_or(i64::MAX);
    let mut running = Running {
        labels: vec!["start".to_string()],
        balance: BTreeMap::new(),
        series: BTreeMap::new(),
    };
    if !entries_stored(pool, id, (-1, through)).await? {
        return from_fold(pool, folds, id, running).await;
    }
    let mut entries = NumberedEntries::of(id, &header)?;
    let mut after = -1;
    while after < through {
        let upto = after.saturating_add(PAGE).min(through);
        read_page(pool, id, (after, upto), |row| {
            let (entry, hand) = entries.read(&row)?;
            running.add((entry.seq, &entry.kind, hand), &entry.postings);
            Ok(())
        })
        .await?;
        after = upto;
    }
    Ok(running.chart(accounts, header.currency))
}

/// [`running_balances`] of a session with events stored before ledger entries were kept:
/// from its fold, the ledger's entries and the hands' lines.
async fn from_fold(
    pool: &ReadPool,
    folds: &Folds,
    id: SessionId,
    mut running: Running,
) -> Result<RunningBalances, AppError> {
    let record = super::club::session(pool, folds, id).await?;
    for LedgerEvent {
        seq,
        kind,
        postings,
        ..
    } in &record.ledger.events
    {
        let hand = record.line(*seq).and_then(|l| l.hand_number);
        running.add((*seq, kind, hand), postings);
    }
    let accounts = record.ledger.balances.into_keys().collect();
    Ok(running.chart(accounts, record.doc.currency))
}
