//! The games finished in a session, kept once however many states share them.

use std::sync::Arc;

use super::Finish;
use crate::rules::FinishedGame;

/// The games finished so far, as a list shared by every state that holds them: a state
/// after a game end points at the state's list before it plus one game, so copying a state
/// (before every event, for corrections) copies one pointer, never the games, and each
/// finished game is kept once however many states follow it.
#[derive(Clone, Default)]
pub(super) struct Games(Option<Arc<GameNode>>);

struct GameNode {
    game: Held,
    /// How many games the list holds up to and including this one.
    len: usize,
    before: Games,
}

/// What is kept of one finished game.
enum Held {
    /// All of it: what a fold needs to show the game again under a correction.
    Whole(Box<Finish>),
    /// Its ledger record alone, as compact JSON text: what a state that is never corrected
    /// ([`super::Tip`]) keeps of every game but the last, in about a tenth of the memory.
    Record(Box<str>),
}

impl Held {
    /// The ledger record. A record was written from a [`FinishedGame`], so it always reads
    /// back; were it not to, the draw it gives would show in the ledger, never a panic.
    fn record(&self) -> FinishedGame {
        match self {
            Held::Whole(finish) => finish.game.clone(),
            Held::Record(text) => serde_json::from_str(text).unwrap_or(FinishedGame {
                winner: None,
                decided_by: String::new(),
                final_scores: serde_json::Value::Null,
            }),
        }
    }
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
            Held::Record(_) => None,
        }
    }

    /// One more game finished.
    pub(super) fn push(&mut self, finish: Finish) {
        let before = std::mem::take(self);
        let len = before.len() + 1;
        *self = Games(Some(Arc::new(GameNode {
            game: Held::Whole(Box::new(finish)),
            len,
            before,
        })));
    }

    /// Every game kept whole, in order (a copy: the cost grows with the games, not the
    /// hands). A fold's list is always whole; a tip's games but the last are left out.
    pub(super) fn to_vec(&self) -> Vec<Finish> {
        let mut games = Vec::with_capacity(self.len());
        let mut at = self.0.as_deref();
        while let Some(node) = at {
            if let Held::Whole(finish) = &node.game {
                games.push(Finish::clone(finish));
            }
            at = node.before.0.as_deref();
        }
        games.reverse();
        games
    }

    /// The ledger's record of every game (`games`), in order.
    pub(super) fn records(&self) -> Vec<FinishedGame> {
        let mut games = Vec::with_capacity(self.len());
        let mut at = self.0.as_deref();
        while let Some(node) = at {
            games.push(node.game.record());
            at = node.before.0.as_deref();
        }
        games.reverse();
        games
    }

    /// The same games, of which every one but the last keeps only its ledger record: what
    /// a state that is never corrected needs ([`super::Tip`]), in a list of its own.
    pub(super) fn slim_copy(&self) -> Games {
        let mut copy = Games::default();
        for finish in self.to_vec() {
            copy.push(finish);
            copy.slim_older();
        }
        copy
    }

    /// Keeps of every game but the last only its ledger record, from the one before the
    /// last back to the first already slim; a game shared with another list is left whole
    /// (that list may need it). Costs one game a call when called after every push.
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
            // Serializing a record of strings and a JSON value cannot fail; were it to,
            // the game stays whole.
            if let Ok(text) = serde_json::to_string(&finish.game) {
                node.game = Held::Record(text.into_boxed_str());
            }
            next = node.before.0.as_mut().and_then(Arc::get_mut);
        }
    }
}

impl Drop for Games {
    /// Lets go of a long list one game at a time: dropped the usual way, each game would
    /// drop the one before it from within its own drop, as deep as the list is long.
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
