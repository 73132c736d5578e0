//! What a played-out Two-handed Pinochle deal does to the game (rules §1.9): single deals
//! are games; in a match one player alone at the target wins, both raise it.

use serde_json::json;

use super::{Standing, TwoHanded, judge, pts};
use crate::rules::{Mark, Outcome, RuleError, SheetLine, Step, Tone};

/// A deal scored, before the mode judges it.
pub(super) struct Dealt {
    /// Both players' scores after the deal (the deal's totals alone in single deals).
    pub after: [i64; 2],
    /// The deal in words.
    pub why: String,
    /// The sheet's line for the deal.
    pub line: SheetLine,
    /// What the deal adds to each player, as steps.
    pub steps: Vec<Step>,
}

impl TwoHanded {
    /// Single deals: the higher total wins, equal is a draw (rules §1.9, §3 item 29).
    pub(super) fn single_deal(&mut self, dealt: Dealt) -> Outcome {
        let Dealt {
            after,
            mut why,
            mut line,
            steps,
        } = dealt;
        let game = self.game_number();
        let [a, b] = after;
        let winner = match a.cmp(&b) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        let how = match winner {
            Some(w) => format!(
                "the higher total of the deal, {} to {}",
                pts(after.get(w).copied().unwrap_or(0)),
                pts(after.get(1 - w).copied().unwrap_or(0))
            ),
            None => {
                line.marks.push(Mark::new("a draw", Tone::Plain));
                format!("equal totals, {}: a draw", pts(a))
            }
        };
        let decided_by = if winner.is_some() {
            "single_deal"
        } else {
            "single_deal_draw"
        };
        let (postings, words, paid, finished) = self.finish(winner, decided_by, how, after);
        why.push_str(&match winner {
            Some(w) => format!(
                ". Every deal is a game: {} wins game {game} with the higher total; {words}",
                self.name(w)
            ),
            None => {
                format!(". Every deal is a game: equal totals make game {game} a draw; {words}")
            }
        });
        Outcome {
            rules: vec!["rules §1.9".into()],
            postings: postings.into_vec(),
            scores_after: Some(json!({ "game": game, "scores": self.scores_json(after) })),
            explanation: why,
            steps: [steps, paid].concat(),
            line,
            finished: Some(finished),
        }
    }

    /// A match: one alone at the target wins; both raise it (rules §1.9, S004).
    pub(super) fn match_deal(&mut self, dealt: Dealt) -> Result<Outcome, RuleError> {
        let game = self.game_number();
        let after = dealt.after;
        let target = match judge(after, self.target, self.agreements.target_step)? {
            Standing::Won(w) => return Ok(self.match_won(w, dealt)),
            Standing::Goes { target } => target,
        };
        let Dealt {
            mut why,
            mut line,
            steps,
            ..
        } = dealt;
        if target != self.target {
            why.push_str(&format!(
                ". Both have {} or more ({} {}, {} {}): the game goes on to {}, however far one is ahead",
                pts(self.target),
                self.name(0),
                pts(after[0]),
                self.name(1),
                pts(after[1]),
                pts(target)
            ));
            line.marks.push(Mark::new(
                format!("both past {}: game to {}", pts(self.target), pts(target)),
                Tone::Plain,
            ));
        }
        self.scores = after;
        self.target = target;
        self.deals_this_game += 1;
        Ok(Outcome {
            scores_after: Some(json!({
                "game": game, "target": target, "scores": self.scores_json(after)
            })),
            ..Outcome::new(Vec::new(), why, line).with_steps(steps)
        })
    }

    /// Seat `w` alone reached the target: he wins the match game, settled at once.
    fn match_won(&mut self, w: usize, dealt: Dealt) -> Outcome {
        let Dealt {
            after,
            mut why,
            line,
            steps,
        } = dealt;
        let game = self.game_number();
        let how = format!(
            "reached {} (game {}) with {} under it",
            pts(after.get(w).copied().unwrap_or(0)),
            pts(self.target),
            self.name(1 - w)
        );
        why.push_str(&format!(
            ". {} reaches {} (game {}) and {} has {}: {} wins game {game}",
            self.name(w),
            pts(after.get(w).copied().unwrap_or(0)),
            pts(self.target),
            self.name(1 - w),
            pts(after.get(1 - w).copied().unwrap_or(0)),
            self.name(w)
        ));
        let target = self.target;
        let (postings, words, paid, finished) = self.finish(Some(w), "target", how, after);
        why.push_str(&format!("; {words}"));
        Outcome {
            rules: vec!["rules §1.9".into()],
            postings: postings.into_vec(),
            scores_after: Some(json!({
                "game": game, "target": target, "scores": self.scores_json(after)
            })),
            explanation: why,
            steps: [steps, paid].concat(),
            line,
            finished: Some(finished),
        }
    }
}
