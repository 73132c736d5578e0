//! What corrections did to a session, for the score sheets of games that finish games
//! (Auction Pitch, Check Pinochle): which rows are struck through and why, where the
//! "correct" links go, and which games stood finished at each point of the session, each
//! with the ledger entry that settled it.
//!
//! Everything is read from the ledger and from replays of the session as it stood at
//! that point (corrections applied, undone events left out): no game rule lives here.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::error::AppError;
use crate::format::corrections::{Amendments, amendments};
use crate::format::{LedgerDoc, LedgerEvent, SessionDoc, replay};
use crate::rules::FinishedGame;
use crate::service::Loaded;

/// The type of a stored event (`"hand"`, `"correction"`, …).
fn kind(event: &Value) -> &str {
    event
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default()
}

/// True for the events that change an earlier one: `correction` and `void`.
fn is_amendment(event: &Value) -> bool {
    matches!(kind(event), "correction" | "void")
}

fn replayed(doc: &SessionDoc) -> Result<LedgerDoc, AppError> {
    replay(doc).map_err(|r| AppError::Internal(format!("stored session: {r}")))
}

/// A finished game as the session stood at some point.
#[derive(Debug, Clone)]
pub struct Closing {
    /// The game's number in the session, from 1.
    pub number: usize,
    /// The game as the ledger's `games` lists it.
    pub game: FinishedGame,
    /// The ledger entry of the hand that finished it; its postings are the game's
    /// settlement.
    pub entry: LedgerEvent,
    /// The index of that hand in the session's events (a replacement counts as the hand
    /// it replaces).
    pub event: usize,
}

impl Closing {
    /// Whether `other` closes the game the same way: same game, same money, same sheet.
    fn same_result(&self, other: &Closing) -> bool {
        self.game == other.game
            && self.entry.postings == other.entry.postings
            && self.entry.scores_after == other.entry.scores_after
    }
}

/// The session as it stood after its first events.
struct State {
    /// The ledger entries of the events that then stood, each with its event's index in
    /// the session.
    entries: Vec<(usize, LedgerEvent)>,
    /// The games finished by then, in order.
    closings: Vec<Closing>,
}

/// How a sheet tells the ledger entry that finished a game from the engine's own marks
/// on it (Check Pinochle: `game_over` in `scores_after`), given the game's `games`
/// record. Entries are tried in order, each game from after the previous one's end.
pub type EndsGame = dyn Fn(&LedgerEvent, &FinishedGame) -> bool;

/// Replays the first `upto` events of `doc` as they then stood and finds the entry that
/// finished each game: by `ends`, or if that does not account for every game, as the
/// shortest prefix with more finished games (exact, but a replay per step).
fn state(doc: &SessionDoc, upto: usize, ends: &EndsGame) -> Result<State, AppError> {
    let empty = SessionDoc {
        events: Vec::new(),
        ..doc.clone()
    };
    let prefix = SessionDoc {
        events: doc.events[..upto.min(doc.events.len())].to_vec(),
        ..empty.clone()
    };
    let amended = amendments(&prefix);
    let standing: Vec<(usize, Value)> = (0..prefix.events.len())
        .filter(|&i| !is_amendment(&prefix.events[i]))
        .filter_map(|i| amended.current_version(&prefix, i).map(|e| (i, e.clone())))
        .collect();
    let events: Vec<Value> = standing.iter().map(|(_, e)| e.clone()).collect();
    let ledger = replayed(&SessionDoc {
        events: events.clone(),
        ..empty.clone()
    })?;
    let index_of = |seq: usize| {
        seq.checked_sub(1)
            .and_then(|k| standing.get(k))
            .map(|(i, _)| *i)
    };
    let closing = |n: usize, game: &FinishedGame, entry: &LedgerEvent| {
        Some(Closing {
            number: n + 1,
            game: game.clone(),
            entry: entry.clone(),
            event: index_of(entry.seq)?,
        })
    };
    let mut rest = ledger.events.iter();
    let mut closings: Vec<Closing> = ledger
        .games
        .iter()
        .enumerate()
        .map_while(|(n, game)| closing(n, game, rest.by_ref().find(|e| ends(e, game))?))
        .collect();
    if closings.len() < ledger.games.len() {
        closings.clear();
        let finished_after = |k: usize| -> Result<usize, AppError> {
            let doc = SessionDoc {
                events: events[..k].to_vec(),
                ..empty.clone()
            };
            Ok(replayed(&doc)?.games.len())
        };
        let mut from = 1;
        for (n, game) in ledger.games.iter().enumerate() {
            let (mut low, mut high) = (from, events.len());
            while low < high {
                let mid = low + (high - low) / 2;
                if finished_after(mid)? > n {
                    high = mid;
                } else {
                    low = mid + 1;
                }
            }
            let Some(found) = ledger
                .events
                .iter()
                .find(|e| e.seq == low)
                .and_then(|entry| closing(n, game, entry))
            else {
                break;
            };
            closings.push(found);
            from = low + 1;
        }
    }
    let entries = ledger
        .events
        .into_iter()
        .filter_map(|e| index_of(e.seq).map(|i| (i, e)))
        .collect();
    Ok(State { entries, closings })
}

/// The corrections of one session, read once per page.
pub struct History {
    id: i64,
    open: bool,
    amended: Amendments,
    /// When each event was recorded, `"2026-05-01 20:15:00 UTC"`, by index.
    recorded: BTreeMap<usize, String>,
    /// The indices of the `hand` events.
    hands: BTreeSet<usize>,
    /// Each `correction` or `void` (by index) with the event it changes and its type.
    targets: BTreeMap<usize, (usize, bool)>,
    /// Where the stretches between amendments end (exclusive): every amendment's index,
    /// then the number of events.
    ends: Vec<usize>,
    /// The session as it stood at each end.
    states: Vec<State>,
}

impl History {
    /// Reads the corrections of `loaded` and replays the session as it stood before
    /// each of them; `ends_game` tells the entry that finished a game. Errors: a stored
    /// session that no longer replays.
    pub fn read(loaded: &Loaded, ends_game: &EndsGame) -> Result<History, AppError> {
        let doc = &loaded.doc;
        let targets: BTreeMap<usize, (usize, bool)> = doc
            .events
            .iter()
            .enumerate()
            .filter(|(_, e)| is_amendment(e))
            .filter_map(|(i, e)| {
                let target = e.get("event").and_then(Value::as_u64)?;
                Some((i, (usize::try_from(target).ok()?, kind(e) == "void")))
            })
            .collect();
        let mut ends: Vec<usize> = targets.keys().copied().collect();
        ends.push(doc.events.len());
        let states = ends
            .iter()
            .map(|&end| state(doc, end, ends_game))
            .collect::<Result<_, _>>()?;
        Ok(History {
            id: loaded.id,
            open: !loaded.closed(),
            amended: amendments(doc),
            recorded: loaded
                .rows
                .iter()
                .filter_map(|r| {
                    let index = usize::try_from(r.seq).ok()?.checked_sub(1)?;
                    Some((index, r.recorded_at.replace('T', " ").replace('Z', " UTC")))
                })
                .collect(),
            hands: (0..doc.events.len())
                .filter(|&i| kind(&doc.events[i]) == "hand")
                .collect(),
            targets,
            ends,
            states,
        })
    }

    /// The session as it stood for the event at `index`: up to the next amendment after
    /// it (so an amendment's own state includes it).
    fn state_of(&self, index: usize) -> Option<&State> {
        let stretch = self.ends.partition_point(|&end| end <= index);
        self.states.get(stretch)
    }

    /// When the event at `index` was recorded.
    fn when(&self, index: usize) -> &str {
        self.recorded.get(&index).map_or("", String::as_str)
    }

    /// Whether a later correction or undo changed the event at `index`: its row is
    /// struck through.
    pub fn struck(&self, index: usize) -> bool {
        self.amended.changed_by.contains_key(&index)
    }

    /// When and by which events the event at `index` was changed, in words
    /// (`"corrected 2026-05-01 20:15:00 UTC (event 5)"`); empty if it stands as entered.
    pub fn changed(&self, index: usize) -> String {
        let Some(by) = self.amended.changed_by.get(&index) else {
            return String::new();
        };
        by.iter()
            .map(|&i| {
                let what = if self.amended.voided.contains(&index) && Some(&i) == by.last() {
                    "undone"
                } else {
                    "corrected"
                };
                format!("{what} {} (event {i})", self.when(i))
            })
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// Why a closing row shown earlier no longer stands after the amendment at `index`:
    /// the game ended differently, or is not over any more.
    pub fn closing_changed(&self, index: usize, still_over: bool) -> String {
        let what = if still_over {
            "changed"
        } else {
            "no longer over"
        };
        format!("{what} {} (event {index})", self.when(index))
    }

    /// The event that the `correction` or `void` at `index` changes.
    pub fn target(&self, index: usize) -> Option<usize> {
        self.targets.get(&index).map(|(t, _)| *t)
    }

    /// What the `correction` or `void` at `index` does, for its row: `"corrects event
    /// 3"`, `"undoes event 3"`.
    pub fn note(&self, index: usize) -> Option<String> {
        self.targets.get(&index).map(|(target, void)| {
            let what = if *void { "undoes" } else { "corrects" };
            format!("{what} event {target}")
        })
    }

    /// The page that corrects the hand the row of event `index` shows as it now stands,
    /// in an open session: a hand's own row while it stands as entered, else the row of
    /// its latest correction; never a struck row, nor an undone hand.
    pub fn correct_link(&self, index: usize) -> Option<String> {
        if !self.open {
            return None;
        }
        let hand = if self.hands.contains(&index) {
            (!self.struck(index)).then_some(index)
        } else {
            let (target, void) = self.targets.get(&index)?;
            let latest = self.amended.changed_by.get(target)?.last() == Some(&index);
            (!void && latest && self.hands.contains(target) && !self.struck(index))
                .then_some(*target)
        };
        hand.map(|i| format!("/sessions/{}?correct={i}#correct", self.id))
    }

    /// The game the hand at `index` finished, as the session stood when it was played.
    pub fn finished_by(&self, index: usize) -> Option<&Closing> {
        self.state_of(index)?
            .closings
            .iter()
            .find(|c| c.event == index)
    }

    /// The finished games just after the amendment at `index`, in order.
    pub fn games_after(&self, index: usize) -> Vec<Closing> {
        self.state_of(index).map_or_else(Vec::new, |s| {
            s.closings
                .iter()
                .filter(|c| c.event < index)
                .cloned()
                .collect()
        })
    }

    /// The ledger entries of the events standing just after the amendment at `index`
    /// (each as it now reads), in order, with their events' indices.
    pub fn standing_after(&self, index: usize) -> Vec<(usize, &LedgerEvent)> {
        self.state_of(index).map_or_else(Vec::new, |s| {
            s.entries
                .iter()
                .filter(|(i, _)| *i < index)
                .map(|(i, e)| (*i, e))
                .collect()
        })
    }
}

/// The closing rows a sheet has shown that still stand, by game number: the sheet's
/// handle for the row, the event whose row shows it, and the closing shown.
pub struct Shown<H> {
    rows: BTreeMap<usize, (H, usize, Closing)>,
}

impl<H: Copy> Default for Shown<H> {
    fn default() -> Shown<H> {
        Shown::new()
    }
}

impl<H: Copy> Shown<H> {
    /// Nothing shown yet.
    pub fn new() -> Shown<H> {
        Shown {
            rows: BTreeMap::new(),
        }
    }

    /// Records that the row `handle`, under the row of event `event`, shows `closing`.
    pub fn show(&mut self, handle: H, event: usize, closing: Closing) {
        self.rows.insert(closing.number, (handle, event, closing));
    }

    /// At a correction or undo of event `target`, with `now` the finished games after
    /// it: takes out the shown rows that no longer stand (with whether their game is
    /// still over) and returns them, and the closings to show after the amendment's
    /// row: every game that ended differently or newly, and every game the changed
    /// event had finished.
    pub fn amend(&mut self, target: usize, now: &[Closing]) -> (Vec<(H, bool)>, Vec<Closing>) {
        let numbers: BTreeSet<usize> = self
            .rows
            .keys()
            .copied()
            .chain(now.iter().map(|c| c.number))
            .collect();
        let mut gone = Vec::new();
        let mut again = Vec::new();
        for number in numbers {
            let new = now.iter().find(|c| c.number == number);
            let redo = match (self.rows.get(&number), new) {
                (Some((_, event, old)), Some(new)) => *event == target || !old.same_result(new),
                (None, None) => false,
                _ => true,
            };
            if !redo {
                continue;
            }
            if let Some((handle, _, _)) = self.rows.remove(&number) {
                gone.push((handle, new.is_some()));
            }
            if let Some(new) = new {
                again.push(new.clone());
            }
        }
        (gone, again)
    }

    /// Takes out the rows whose game the ledger, the current truth, does not list as
    /// shown. None are expected: [`Shown::amend`] keeps the rows in step.
    pub fn stale(&mut self, games: &[FinishedGame]) -> Vec<H> {
        let stale: Vec<usize> = self
            .rows
            .iter()
            .filter(|(n, (_, _, c))| games.get(**n - 1) != Some(&c.game))
            .map(|(n, _)| *n)
            .collect();
        stale
            .into_iter()
            .filter_map(|n| self.rows.remove(&n).map(|(h, _, _)| h))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use serde_json::json;

    fn hand(dealer: &str, pitcher: &str, took: [Option<&str>; 4]) -> Value {
        json!({"type": "hand", "dealer": dealer, "pitcher": pitcher, "bid": 1,
               "points": {"high": took[0], "low": took[1], "jack": took[2], "game": took[3]}})
    }

    /// (game, event, ledger seq) of each closing.
    fn ends(state: &State) -> Vec<(usize, usize, usize)> {
        state
            .closings
            .iter()
            .map(|c| (c.number, c.event, c.entry.seq))
            .collect()
    }

    #[test]
    fn the_engines_marks_and_the_replays_find_the_same_game_ends() {
        let a = Some("Ann");
        let b = Some("Bob");
        let c = Some("Cy");
        let doc: SessionDoc = serde_json::from_value(json!({
            "format": "scorekeeper/session@1", "game": "auction_pitch",
            "agreements": {"stake": "0.05", "target": 4}, "players": ["Ann", "Bob", "Cy"],
            "events": [
                hand("Cy", "Ann", [a, a, None, None]),
                hand("Ann", "Bob", [b, b, None, None]),
                hand("Bob", "Cy", [c, c, None, None]),
                hand("Cy", "Ann", [a, a, None, None]),
                hand("Ann", "Bob", [b, b, None, b]),
                {"type": "correction", "event": 3, "replacement": hand("Cy", "Ann", [a, c, None, None])},
                {"type": "hand", "dealer": "Bob", "all_passed": true},
                hand("Bob", "Cy", [c, c, None, None]),
                {"type": "void", "event": 4},
                hand("Cy", "Ann", [a, a, None, a]),
                hand("Ann", "Bob", [b, b, None, b]),
                hand("Bob", "Cy", [c, c, None, c]),
                hand("Cy", "Ann", [a, a, None, a]),
            ]
        }))
        .unwrap();
        let marks = |e: &LedgerEvent, g: &FinishedGame| {
            e.kind == "hand" && e.scores_after.as_ref() == Some(&g.final_scores)
        };
        let mut found = 0;
        for upto in 0..=doc.events.len() {
            let by_marks = state(&doc, upto, &marks).unwrap();
            let by_replays = state(&doc, upto, &|_, _| false).unwrap();
            assert_eq!(ends(&by_marks), ends(&by_replays), "after {upto} events");
            found = found.max(by_marks.closings.len());
        }
        assert!(found >= 2, "the session finishes games: {found}");
    }
}
