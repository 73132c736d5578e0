//! The games finished in a session, kept once however many states share them.

use std::io::{Read, Write};
use std::sync::Arc;

use super::Finish;
use crate::rules::FinishedGame;

/// The finished games, a persistent list shared by every state: each game kept once.
#[derive(Clone, Default)]
pub(super) struct Games(Option<Arc<GameNode>>);

struct GameNode {
    game: Held,
    /// How many games the list holds up to and including this one.
    len: usize,
    before: Games,
}

/// What is kept of one finished game, or of a run of them.
enum Held {
    /// All of it: what a fold needs to show the game again under a correction.
    Whole(Box<Finish>),
    /// Its ledger record alone, as compact JSON (a tip's older games).
    Record(Box<str>),
    /// Deflated records of `games` games, oldest first, one JSON line each.
    Packed { lines: Box<[u8]>, games: usize },
}

/// How many single records a tip keeps before packing them into one [`Held::Packed`].
const PACK: usize = 128;

impl Held {
    /// How many games it holds.
    fn games(&self) -> usize {
        match self {
            Held::Packed { games, .. } => *games,
            Held::Whole(_) | Held::Record(_) => 1,
        }
    }

    /// The ledger records it holds, oldest first; an unreadable one reads as a draw.
    fn records(&self) -> Vec<FinishedGame> {
        match self {
            Held::Whole(finish) => vec![finish.game.clone()],
            Held::Record(text) => vec![read_record(text)],
            Held::Packed { lines, games } => {
                let mut records: Vec<FinishedGame> =
                    inflate(lines).lines().map(read_record).collect();
                records.resize_with(*games, draw);
                records
            }
        }
    }

    /// Its records, each written as JSON to `out` after a comma unless `out` opens the
    /// array: a record's own text as it is held (written by [`record_text`]'s serializer,
    /// so it reads back as [`Held::records`] reads it), never read into a value first.
    fn write_records(&self, out: &mut String) {
        let mut write = |text: &str| {
            if !out.ends_with('[') {
                out.push(',');
            }
            out.push_str(text);
        };
        match self {
            Held::Record(text) => write(text),
            Held::Packed { lines, games } => {
                let text = inflate(lines);
                if text.lines().count() == *games {
                    text.lines().for_each(&mut write);
                } else {
                    // What did not inflate reads as draws, as `records` has it.
                    for record in self.records() {
                        write(&record_text(&record));
                    }
                }
            }
            Held::Whole(finish) => write(&record_text(&finish.game)),
        }
    }

    /// The same games for a list of their own: a whole game as its record when `slim`.
    fn copy(&self, slim: bool) -> Held {
        match self {
            Held::Whole(finish) if slim => match serde_json::to_string(&finish.game) {
                Ok(text) => Held::Record(text.into_boxed_str()),
                Err(_) => Held::Whole(finish.clone()),
            },
            Held::Whole(finish) => Held::Whole(finish.clone()),
            Held::Record(text) => Held::Record(text.clone()),
            Held::Packed { lines, games } => Held::Packed {
                lines: lines.clone(),
                games: *games,
            },
        }
    }
}

/// A record that does not read back: a draw, decided by nothing.
fn draw() -> FinishedGame {
    FinishedGame {
        winner: None,
        decided_by: String::new(),
        final_scores: serde_json::Value::Null,
    }
}

/// `record` as compact JSON, the way a record is held. Serializing strings and a JSON
/// value cannot fail; were it to, the record is written `null`.
fn record_text(record: &FinishedGame) -> String {
    serde_json::to_string(record).unwrap_or_else(|_| String::from("null"))
}

/// The record written as `text` ([`draw`] should it not read back).
fn read_record(text: &str) -> FinishedGame {
    serde_json::from_str(text).unwrap_or_else(|_| draw())
}

/// `text` deflated; `None` should the encoder fail (it writes to memory, so it does not).
fn deflate(text: &str) -> Option<Box<[u8]>> {
    let mut encoder =
        flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(text.as_bytes()).ok()?;
    Some(encoder.finish().ok()?.into_boxed_slice())
}

/// What [`deflate`] wrote, as text (empty should it not inflate, so its games read as draws).
fn inflate(bytes: &[u8]) -> String {
    let mut text = String::new();
    if flate2::read::DeflateDecoder::new(bytes)
        .read_to_string(&mut text)
        .is_err()
    {
        text.clear();
    }
    text
}

impl Games {
    /// How many games are finished.
    pub(super) fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |n| n.len)
    }

    /// The last game finished (always kept whole).
    pub(super) fn last(&self) -> Option<&Finish> {
        match &self.0.as_ref()?.game {
            Held::Whole(finish) => Some(finish),
            Held::Record(_) | Held::Packed { .. } => None,
        }
    }

    /// One more game finished.
    pub(super) fn push(&mut self, finish: Finish) {
        self.push_held(Held::Whole(Box::new(finish)));
    }

    /// `game` (one game or a run) after the games of the list.
    fn push_held(&mut self, game: Held) {
        let before = std::mem::take(self);
        let len = before.len() + game.games();
        *self = Games(Some(Arc::new(GameNode { game, len, before })));
    }

    /// Every game kept whole, in order (a copy). A tip leaves out all but the last.
    #[cfg(test)]
    pub(super) fn to_vec(&self) -> Vec<Finish> {
        self.to_vec_after(0).into_iter().cloned().collect()
    }

    /// [`Games::to_vec`] after the first `from`, borrowed: what a correction can change.
    pub(super) fn to_vec_after(&self, from: usize) -> Vec<&Finish> {
        let mut games = Vec::with_capacity(self.len().saturating_sub(from));
        let mut at = self.0.as_deref();
        while let Some(node) = at
            && node.len > from
        {
            if let Held::Whole(finish) = &node.game {
                games.push(&**finish);
            }
            at = node.before.0.as_deref();
        }
        games.reverse();
        games
    }

    /// The ledger's record of every game (`games`), in order.
    pub(super) fn records(&self) -> Vec<FinishedGame> {
        let mut runs = Vec::new();
        let mut at = self.0.as_deref();
        while let Some(node) = at {
            runs.push(node.game.records());
            at = node.before.0.as_deref();
        }
        runs.into_iter().rev().flatten().collect()
    }

    /// [`Games::records`] as the JSON array the ledger writes (`games`), from each record's
    /// text as held: a long session's games are not read into values first.
    pub(super) fn records_json(&self) -> String {
        let mut runs = Vec::new();
        let mut at = self.0.as_deref();
        while let Some(node) = at {
            runs.push(&node.game);
            at = node.before.0.as_deref();
        }
        let mut out = String::from("[");
        for held in runs.into_iter().rev() {
            held.write_records(&mut out);
        }
        out.push(']');
        out
    }

    /// The same games, all but the last as records (older packed): a [`super::Tip`]'s.
    pub(super) fn slim_copy(&self) -> Games {
        let mut nodes = Vec::new();
        let mut at = self.0.as_deref();
        while let Some(node) = at {
            nodes.push(node);
            at = node.before.0.as_deref();
        }
        let mut copy = Games::default();
        for (k, node) in nodes.iter().rev().enumerate() {
            copy.push_held(node.game.copy(k + 1 < nodes.len()));
            copy.pack();
        }
        copy
    }

    /// [`Games::slim_copy`] of this list when it is a prefix of `whole`, whose slim copy is
    /// `slim`: the games before its last are taken from `slim`, not copied again (a tail's
    /// kept states finished all but their last few games with the tail's core). Otherwise
    /// a copy of its own.
    pub(super) fn slim_copy_beside(&self, whole: &Games, slim: &Games) -> Games {
        let Some(last) = self.0.as_ref() else {
            return Games::default();
        };
        let shared = whole
            .node_at(last.len)
            .is_some_and(|n| Arc::ptr_eq(n, last));
        let before = last.len - last.game.games();
        let base = match before {
            0 => Some(Games::default()),
            _ => slim.node_at(before).map(|n| Games(Some(Arc::clone(n)))),
        };
        match base {
            Some(mut copy) if shared => {
                copy.push_held(last.game.copy(false));
                copy
            }
            _ => self.slim_copy(),
        }
    }

    /// How the games are held: (packed runs, single records, whole games), newest first.
    #[cfg(test)]
    pub(super) fn held(&self) -> (usize, usize, usize) {
        let (mut runs, mut singles, mut whole) = (0, 0, 0);
        let mut at = self.0.as_deref();
        while let Some(node) = at {
            match node.game {
                Held::Packed { .. } => runs += 1,
                Held::Record(_) => singles += 1,
                Held::Whole(_) => whole += 1,
            }
            at = node.before.0.as_deref();
        }
        (runs, singles, whole)
    }

    /// This list's games after its first `from`, following `onto` (which holds `from`
    /// games), each held as it is here; `None` when a packed run holds games on both sides
    /// of `from`.
    pub(super) fn rebased(&self, from: usize, onto: &Games) -> Option<Games> {
        let mut nodes = Vec::new();
        let mut at = self.0.as_deref();
        while let Some(node) = at
            && node.len > from
        {
            nodes.push(node);
            at = node.before.0.as_deref();
        }
        if at.map_or(0, |node| node.len) != from {
            return None;
        }
        let mut list = onto.clone();
        for node in nodes.into_iter().rev() {
            list.push_held(node.game.copy(false));
        }
        Some(list)
    }

    /// The node holding exactly the first `len` games, if one does.
    fn node_at(&self, len: usize) -> Option<&Arc<GameNode>> {
        let mut at = self.0.as_ref();
        while let Some(node) = at
            && node.len > len
        {
            at = node.before.0.as_ref();
        }
        at.filter(|node| node.len == len)
    }

    /// Slims every game but the last to its record and packs past [`PACK`]; games shared
    /// with another list stay whole. One game per call after each push.
    pub(super) fn slim_older(&mut self) {
        let mut next = self
            .0
            .as_mut()
            .and_then(Arc::get_mut)
            .and_then(|last| last.before.0.as_mut())
            .and_then(Arc::get_mut);
        while let Some(node) = next {
            let Held::Whole(finish) = &node.game else {
                break;
            };
            // Serializing cannot fail; were it to, the game stays whole.
            if let Ok(text) = serde_json::to_string(&finish.game) {
                node.game = Held::Record(text.into_boxed_str());
            }
            next = node.before.0.as_mut().and_then(Arc::get_mut);
        }
        self.pack();
    }

    /// Packs the [`PACK`] unshared single records behind the last game into one run.
    fn pack(&mut self) {
        let Some(last) = self.0.as_mut().and_then(Arc::get_mut) else {
            return;
        };
        let mut run = 0;
        let mut at = last.before.0.as_ref();
        while let Some(node) = at
            && Arc::strong_count(node) == 1
            && matches!(node.game, Held::Record(_))
        {
            run += 1;
            at = node.before.0.as_ref();
        }
        if run < PACK {
            return;
        }
        let mut texts = Vec::with_capacity(run);
        let mut rest = std::mem::take(&mut last.before);
        while texts.len() < run
            && let Some(node) = rest.0.take()
        {
            match Arc::try_unwrap(node) {
                Ok(GameNode { game, before, .. }) => {
                    if let Held::Record(text) = game {
                        texts.push(text);
                    }
                    rest = before;
                }
                Err(shared) => {
                    rest = Games(Some(shared));
                    break;
                }
            }
        }
        texts.reverse();
        match deflate(&texts.join("\n")) {
            Some(lines) => rest.push_held(Held::Packed {
                lines,
                games: texts.len(),
            }),
            None => texts
                .into_iter()
                .for_each(|text| rest.push_held(Held::Record(text))),
        }
        last.before = rest;
    }
}

impl Drop for Games {
    /// Drops a long list one game at a time, not recursively as deep as the list.
    fn drop(&mut self) {
        let mut next = self.0.take();
        while let Some(node) = next {
            next = match Arc::try_unwrap(node) {
                Ok(mut node) => node.before.0.take(),
                Err(_) => None,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::GameEnd;
    use serde_json::json;

    /// Game `n` (from 1) as the Auction game would finish it: every field of the record
    /// differs from game to game, so a record read back in the wrong place shows.
    fn finish(n: usize) -> Finish {
        let winner = ["Ann", "Bob", "Cy"][n % 3].to_string();
        Finish {
            event: n - 1,
            game: FinishedGame {
                winner: Some(winner.clone()),
                decided_by: format!("items {n}"),
                final_scores: json!({"Ann": {"items": n, "spent": 2 * n}, "Bob": {"items": ["A", "K"]}}),
            },
            end: GameEnd {
                winner: Some(winner),
                at: None,
                how: format!("game {n}"),
                award: None,
                settlement: String::new(),
                fresh: Vec::new(),
            },
            postings: Vec::new(),
        }
    }

    /// A fold's list of `games`, each kept whole.
    fn whole(games: std::ops::RangeInclusive<usize>) -> Games {
        let mut list = Games::default();
        games.for_each(|n| list.push(finish(n)));
        list
    }

    fn records(games: std::ops::RangeInclusive<usize>) -> Vec<FinishedGame> {
        games.map(|n| finish(n).game).collect()
    }

    #[test]
    fn a_tips_games_are_packed_and_read_back_in_order() {
        let mut tip = Games::default();
        for n in 1..=1000 {
            tip.push(finish(n));
            tip.slim_older();
        }
        assert_eq!(tip.len(), 1000);
        assert_eq!(tip.records(), records(1..=1000));
        // The ledger's text, written from what is held, reads as the records do.
        let written: Vec<FinishedGame> = serde_json::from_str(&tip.records_json()).unwrap();
        assert_eq!(written, records(1..=1000));
        assert_eq!(
            tip.records_json(),
            serde_json::to_string(&tip.records()).unwrap()
        );
        assert_eq!(Games::default().records_json(), "[]");
        assert_eq!(tip.last(), Some(&finish(1000)));
        // 1000 = the last whole + 7 runs of 128 + 103 single records.
        let mut runs = 0;
        let mut singles = 0;
        let mut at = tip.0.as_deref();
        while let Some(node) = at {
            match node.game {
                Held::Packed { games, .. } => {
                    assert_eq!(games, PACK);
                    runs += 1;
                }
                Held::Record(_) => singles += 1,
                Held::Whole(_) => assert_eq!(node.len, 1000, "only the last is whole"),
            }
            at = node.before.0.as_deref();
        }
        assert_eq!((runs, singles), (7, 103));
    }

    #[test]
    fn a_slim_copy_keeps_every_record_and_the_last_game_whole() {
        let fold = whole(1..=300);
        let copy = fold.slim_copy();
        assert_eq!(copy.len(), 300);
        assert_eq!(copy.records(), records(1..=300));
        assert_eq!(copy.last(), Some(&finish(300)));
        assert_eq!(copy.to_vec(), vec![finish(300)]);
        // The fold's own list is untouched: every game whole.
        assert_eq!(fold.to_vec(), (1..=300).map(finish).collect::<Vec<_>>());
    }

    #[test]
    fn the_games_after_a_correction_are_those_after_its_event() {
        let fold = whole(1..=10);
        assert_eq!(
            fold.to_vec_after(7),
            vec![&finish(8), &finish(9), &finish(10)]
        );
        assert_eq!(fold.to_vec_after(10), Vec::<&Finish>::new());
        assert_eq!(fold.to_vec_after(0).len(), 10);
    }

    #[test]
    fn a_game_another_state_shares_stays_whole() {
        let mut games = whole(1..=200);
        // A kept state (a checkpoint) holds the list as it stood after game 200.
        let kept = games.clone();
        for n in 201..=400 {
            games.push(finish(n));
            games.slim_older();
        }
        assert_eq!(games.records(), records(1..=400));
        assert_eq!(kept.to_vec(), (1..=200).map(finish).collect::<Vec<_>>());
        assert_eq!(kept.records(), records(1..=200));
    }

    /// A kept state's games are a prefix of its core's: their slim copy taken beside the
    /// core's holds the same records, its own last game whole, and shares the core's copy.
    #[test]
    fn a_prefix_slim_copy_beside_the_whole_reads_as_its_own_copy() {
        let mut core = whole(1..=300);
        let kept = core.clone();
        for n in 301..=303 {
            core.push(finish(n));
        }
        let slim = core.slim_copy();
        let beside = kept.slim_copy_beside(&core, &slim);
        assert_eq!(beside.records(), kept.slim_copy().records());
        assert_eq!(beside.records(), records(1..=300));
        assert_eq!(beside.last(), Some(&finish(300)));
        assert!(
            beside
                .node_at(299)
                .is_some_and(|n| slim.node_at(299).is_some_and(|m| Arc::ptr_eq(n, m)))
        );
        // A list that is not a prefix (its own game 300) gets a copy of its own.
        let other = {
            let mut list = whole(1..=299);
            list.push(finish(1000));
            list
        };
        let own = other.slim_copy_beside(&core, &slim);
        assert_eq!(own.last(), Some(&finish(1000)));
        assert_eq!(own.len(), 300);
    }
}
