//! Declaring out in a Two-handed Pinochle match (rules §1.9).

use serde_json::json;

use super::agreements::Mode;
use super::hand::{self, DeclareOut, WrittenDeclare, rounded};
use super::{TwoHanded, pts};
use crate::rules::{Cell, Detail, Mark, Outcome, RuleError, SheetLine, Step, Tally, Tone};

/// A declare-out counted: seats, trick points so far, this deal's melds, scores.
struct Claim {
    c: usize,
    o: usize,
    counted: i64,
    melds: [i64; 2],
    tricks_so_far: i64,
    rounding: String,
    before: i64,
    after: [i64; 2],
    claimed: i64,
    made: bool,
}

impl TwoHanded {
    /// A declare-out (match): the claimant's score with this deal's melds and his trick
    /// points so far (rounded by agreement) at or over the target wins, even if the other
    /// has more; under it loses (rules §1.9).
    pub(super) fn declare_out(&mut self, event: WrittenDeclare) -> Result<Outcome, RuleError> {
        if self.agreements.mode == Mode::SingleDeal {
            return Err(RuleError::new(
                "type",
                "declaring out belongs to a match: when every deal is a game there is nothing to declare out of",
            )
            .rule("rules §1.9, session-format"));
        }
        let claim = self.claim(&hand::check_declare_out(event, &self.players)?)?;
        let game = self.game_number();
        let target = self.target;
        let (claimant, other) = (
            self.name(claim.c).to_string(),
            self.name(claim.o).to_string(),
        );
        let mut why = self.claim_words(&claim);
        let (winner, decided_by, how) = if claim.made {
            why.push_str(&format!(
                ": {claimant} is out and wins game {game}, whatever {other} has"
            ));
            let how = format!("declared out at {}", pts(claim.claimed));
            (claim.c, "declared_out", how)
        } else {
            why.push_str(&format!(
                ": short of {}, so {claimant} loses and {other} wins game {game}",
                pts(target)
            ));
            let how = format!("{claimant} declared out short, at {}", pts(claim.claimed));
            (claim.o, "declared_out_short", how)
        };
        let line = self.claim_line(&claim);
        let after = claim.after;
        let (postings, words, paid, finished) = self.finish(Some(winner), decided_by, how, after);
        why.push_str(&format!("; {words}"));
        let score = Step::Score {
            who: claimant,
            sum: format!(
                "{} + meld {} + tricks so far {}{}",
                pts(claim.before),
                claim.melds[claim.c],
                claim.tricks_so_far,
                claim.rounding
            ),
            total: claim.claimed,
            tally: Tally::Points,
        };
        Ok(Outcome {
            rules: vec!["rules §1.9".into()],
            postings: postings.into_vec(),
            scores_after: Some(json!({
                "game": game, "target": target, "scores": self.scores_json(after)
            })),
            explanation: why,
            steps: [vec![score], paid].concat(),
            line,
            finished: Some(finished),
        })
    }

    /// The claim counted. Errors: scores grown past counting.
    fn claim(&self, d: &DeclareOut) -> Result<Claim, RuleError> {
        let (c, o) = (d.claimant, 1 - d.claimant);
        let counted = if self.agreements.round_partial_count {
            rounded(d.tricks_so_far)
        } else {
            d.tricks_so_far
        };
        let melds = [0, 1].map(|seat| d.melds.get(seat).copied().unwrap_or(0));
        let add = |seat: usize, extra: i64| -> Result<i64, RuleError> {
            self.scores
                .get(seat)
                .copied()
                .unwrap_or(0)
                .checked_add(melds[seat])
                .and_then(|s| s.checked_add(extra))
                .ok_or_else(|| RuleError::new("type", "the scores have grown past counting"))
        };
        let mut after = [0; 2];
        after[c] = add(c, counted)?;
        after[o] = add(o, 0)?;
        let rounding = if self.agreements.round_partial_count && counted != d.tricks_so_far {
            format!(" → {counted}")
        } else {
            String::new()
        };
        Ok(Claim {
            c,
            o,
            counted,
            melds,
            tricks_so_far: d.tricks_so_far,
            rounding,
            before: self.scores.get(c).copied().unwrap_or(0),
            after,
            claimed: after[c],
            made: after[c] >= self.target,
        })
    }

    /// The claim in words: "Ann declared out: 850 + meld 60 + tricks so far 87 → 90 = 1,000".
    fn claim_words(&self, claim: &Claim) -> String {
        let mut why = format!(
            "{} declared out: {} + meld {} + tricks so far {}{} = {} against the game of {}",
            self.name(claim.c),
            pts(claim.before),
            claim.melds[claim.c],
            claim.tricks_so_far,
            claim.rounding,
            pts(claim.claimed),
            pts(self.target)
        );
        if !self.agreements.round_partial_count {
            why.push_str(" (the partial count is not rounded, by agreement)");
        }
        why
    }

    /// The sheet's line for a claim: out or short, melds and tricks.
    fn claim_line(&self, claim: &Claim) -> SheetLine {
        let (c, o) = (claim.c, claim.o);
        let claimant = self.name(c).to_string();
        let mut details = vec![
            Detail {
                account: claimant.clone(),
                text: format!("meld {}", claim.melds[c]),
                tone: Tone::Plain,
            },
            Detail {
                account: claimant.clone(),
                text: format!("tricks so far {}{}", claim.tricks_so_far, claim.rounding),
                tone: Tone::Plain,
            },
        ];
        let other_melds = claim.melds[o];
        if other_melds > 0 {
            details.push(Detail {
                account: self.name(o).to_string(),
                text: format!("meld {other_melds}"),
                tone: Tone::Plain,
            });
        }
        // The other player's column shows only his score unless he melded in this deal.
        let cells = (0..2)
            .map(|seat| {
                let running = claim.after[seat];
                let name = self.name(seat);
                match (seat == c, other_melds) {
                    (true, _) => {
                        Cell::added(name, Tally::Points, claim.melds[c] + claim.counted, running)
                    }
                    (false, 0) => Cell::running(name, Tally::Points, running),
                    (false, m) => Cell::added(name, Tally::Points, m, running),
                }
            })
            .collect();
        let (claimed, target) = (pts(claim.claimed), pts(self.target));
        SheetLine {
            marks: vec![if claim.made {
                Mark::new(format!("out at {claimed}"), Tone::Good)
            } else {
                Mark::new(format!("short: {claimed} of {target}"), Tone::Bad)
            }],
            details,
            cells,
            ..SheetLine::titled(format!("{claimant} declared out"))
        }
    }
}
