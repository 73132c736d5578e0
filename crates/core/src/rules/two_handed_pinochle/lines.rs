//! A Two-handed Pinochle deal's steps, words and sheet line (rules §1.9).

use super::agreements::Mode;
use super::hand::{self, Deal, rounded};
use super::{TwoHanded, pts};
use crate::rules::{Award, Detail, Mark, SheetLine, Step, Tally, Tone};

impl TwoHanded {
    /// What the deal adds to each player as steps: "meld 60 + tricks 97 → 100" = 160.
    pub(super) fn score_steps(&self, deal: &Deal, added: [i64; 2]) -> Vec<Step> {
        (0..2)
            .map(|seat| {
                let raw = deal.tricks.get(seat).copied().unwrap_or(0);
                let mut sum = format!(
                    "meld {} + tricks {raw}",
                    deal.melds.get(seat).copied().unwrap_or(0)
                );
                if rounded(raw) != raw {
                    sum.push_str(&format!(" → {}", rounded(raw)));
                }
                if deal.dix(seat) > 0 {
                    sum.push_str(&format!(" + dix turned up {}", deal.dix(seat)));
                }
                Step::Score {
                    who: self.name(seat).to_string(),
                    sum,
                    total: added.get(seat).copied().unwrap_or(0),
                    tally: Tally::Points,
                }
            })
            .collect()
    }

    /// The deal in words: "Bob dealt: Ann meld 60 + tricks 97 → 100 = +160 → 1,010; …".
    pub(super) fn deal_words(&self, deal: &Deal, added: [i64; 2], after: [i64; 2]) -> String {
        let parts: Vec<String> = (0..2)
            .map(|seat| {
                let meld = deal.melds.get(seat).copied().unwrap_or(0);
                let raw = deal.tricks.get(seat).copied().unwrap_or(0);
                let dix = match deal.dix(seat) {
                    0 => String::new(),
                    d => format!(" + dix turned up {d}"),
                };
                let running = match self.agreements.mode {
                    Mode::Match => format!(" → {}", pts(after.get(seat).copied().unwrap_or(0))),
                    Mode::SingleDeal => String::new(),
                };
                let tricks = if rounded(raw) == raw {
                    format!("tricks {raw}")
                } else {
                    format!("tricks {raw} → {}", rounded(raw))
                };
                format!(
                    "{} meld {meld} + {tricks}{dix} = +{}{running}",
                    self.name(seat),
                    added.get(seat).copied().unwrap_or(0)
                )
            })
            .collect();
        format!(
            "{} dealt: {} (trick points in tens, 7 or more counts 10)",
            self.name(deal.dealer),
            parts.join("; ")
        )
    }

    /// The sheet's line for a deal: dealer, dix, meld and tricks (raw → counted), scores.
    pub(super) fn deal_line(&self, deal: &Deal, added: [i64; 2], after: [i64; 2]) -> SheetLine {
        let mut details = Vec::new();
        for seat in 0..2 {
            let account = self.name(seat).to_string();
            let raw = deal.tricks.get(seat).copied().unwrap_or(0);
            details.push(Detail {
                account: account.clone(),
                text: format!("meld {}", deal.melds.get(seat).copied().unwrap_or(0)),
                tone: Tone::Plain,
            });
            details.push(Detail {
                account,
                text: if rounded(raw) == raw {
                    format!("tricks {raw}")
                } else {
                    format!("tricks {raw} → {}", rounded(raw))
                },
                tone: Tone::Plain,
            });
        }
        let dealer = self.name(deal.dealer).to_string();
        let mut marks = Vec::new();
        let mut awards = Vec::new();
        if deal.turn_up_dix {
            marks.push(Mark::new("dix turned up", Tone::Plain));
            awards.push(Award {
                to: dealer.clone(),
                tally: Tally::Points,
                amount: hand::TURN_UP_DIX,
                what: "dix turned up".into(),
                short: String::new(),
            });
        }
        SheetLine {
            marks,
            awards,
            details,
            cells: self.cells(Some(added), after),
            ..SheetLine::titled("deal").dealt_by(dealer)
        }
    }
}
