//! "Auction", the Dutch money-card bidding game (rules §1.10, S004; §3 item 31): 2–4
//! players each bid money cards 2–10 of one suit ($54), all at once, on 8 items (two each
//! of J 1, Q 2, K 3, A 4) turned one by one; a Joker makes the next bid blind. The highest
//! card buys; ties go to overtime among the tied, adding a card each until the tie breaks.
//!
//! One `hand` is one whole game. Highest item value wins, then least spent; a tie on both
//! is a draw ([R]). Each loser pays `stake`, shared among tied winners, odd cents from the
//! first seat (no dealer; session-format "Precise readings"); an all-round draw pays nothing.

pub mod agreements;
pub mod final_count;
pub mod form;
pub mod hand;
mod rounds;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod review_tests;

use serde_json::{Map, Value, json};

use self::agreements::Agreements;
use self::hand::{Game, Holding, Item, Sale, WrittenGame};
use crate::ledger::Postings;
use crate::ledger::split::equal_shares;
use crate::rules::fields;
use crate::rules::game::HandFormSpec;
use crate::rules::typed;
use crate::rules::{
    Column, Ctx, Detail, FinishedGame, GameEnd, GameInfo, Layout, Mark, Outcome, RuleError,
    SheetLine, Step, Table, Tally, Tone,
};

/// The registration of `auction_game`: 2 to 4 players (rules §1.10).
pub static GAME: GameInfo = GameInfo::typed::<Auction, form::Form>(
    ("auction_game", "Auction (money cards)", "rules §1.10"),
    (2, 4),
    form::AGREEMENTS,
);

typed::events! {
    /// What happens in Auction besides a payment and the close: a whole game as one `hand`.
    pub enum Event {
        /// One game, round by round or as its final count.
        "hand" => Hand(hand::WrittenGame),
    }
}

/// The engine of one Auction session: each game is whole in one event, never in progress.
#[derive(Debug, Clone, PartialEq)]
pub struct Auction {
    agreements: Agreements,
    players: Vec<String>,
    games: usize,
}

/// Who won a game, and how (rules §1.10 "Winner", §3 item 31).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The seats of the winners: one, or several tied on item value and money spent.
    pub winners: Vec<usize>,
    /// `"items"`, `"least_spent"` or `"draw"` (the ledger's `decided_by`).
    pub decided_by: &'static str,
}

/// Judges a game: item value, then least spent; tied on both draw (rules §1.10, §3 item 31 [R]).
pub fn judge(holdings: &[Holding]) -> Verdict {
    let best_value = holdings.iter().map(Holding::value).max().unwrap_or(0);
    let on_value: Vec<usize> = (0..holdings.len())
        .filter(|&s| holdings.get(s).is_some_and(|h| h.value() == best_value))
        .collect();
    let least = on_value
        .iter()
        .filter_map(|&s| holdings.get(s).map(|h| h.spent))
        .min()
        .unwrap_or(0);
    let winners: Vec<usize> = on_value
        .iter()
        .copied()
        .filter(|&s| holdings.get(s).is_some_and(|h| h.spent == least))
        .collect();
    let decided_by = match (winners.len(), on_value.len()) {
        (1, 1) => "items",
        (1, _) => "least_spent",
        _ => "draw",
    };
    Verdict {
        winners,
        decided_by,
    }
}

impl Auction {
    /// Starts a session. Errors name `players` outside 2–4, or any `opening_scores`.
    pub fn start(
        agreements: Agreements,
        players: &[String],
        opening_scores: Option<&Value>,
    ) -> Result<Auction, RuleError> {
        if !(2..=4).contains(&players.len()) {
            return Err(RuleError::new(
                "players",
                format!(
                    "Auction is for 2 to 4 players, and {} are listed",
                    players.len()
                ),
            )
            .rule("rules §1.10"));
        }
        fields::no_opening_scores(
            opening_scores,
            "an Auction game is entered whole in one hand, so there are no scores to carry in",
            None,
        )?;
        Ok(Auction {
            agreements,
            players: players.to_vec(),
            games: 0,
        })
    }

    fn name(&self, seat: usize) -> &str {
        self.players.get(seat).map_or("", String::as_str)
    }

    /// Each loser pays `stake`, shared among the winners, odd cents to the first.
    fn settle(&self, table: &Table, winners: &[usize]) -> (Postings, String, Vec<Step>) {
        let mut postings = Postings::new();
        let stake = self.agreements.stake;
        let losers: Vec<usize> = (0..self.players.len())
            .filter(|s| !winners.contains(s))
            .collect();
        if losers.is_empty() {
            return (postings, "everyone draws: nobody pays".into(), Vec::new());
        }
        if stake.is_zero() {
            return (postings, "no stake: nobody pays".into(), Vec::new());
        }
        let winner_names: Vec<&str> = winners.iter().map(|&s| self.name(s)).collect();
        let order: Vec<&str> = table
            .leftover_order()
            .into_iter()
            .filter(|p| winner_names.contains(p))
            .collect();
        let mut steps = vec![Step::Stake {
            amount: stake,
            per: "game lost".into(),
        }];
        let mut words = Vec::new();
        for &l in &losers {
            let loser = self.name(l);
            let shares = equal_shares(stake, &order);
            if shares.len() > 1 {
                steps.push(Step::shares(stake, &shares));
            }
            for (to, amount) in &shares {
                postings.transfer(loser, to, *amount);
                steps.push(Step::Pays {
                    from: loser.to_string(),
                    to: (*to).to_string(),
                    amount: *amount,
                    why: format!("game {} lost", self.games + 1),
                });
                words.push(format!("{loser} pays {to} {amount}"));
            }
        }
        let per = if order.len() > 1 {
            format!(
                " (each loser's stake of {stake} shared among the tied winners, odd cents from the first seat)"
            )
        } else {
            format!(" (the stake of {stake} from each loser)")
        };
        (postings, format!("{}{per}", words.join(", ")), steps)
    }

    fn holding_words(&self, seat: usize, h: &Holding) -> String {
        let items = if h.items.is_empty() {
            "no items".to_string()
        } else {
            h.items
                .iter()
                .map(|i| i.letter())
                .collect::<Vec<_>>()
                .join(" ")
        };
        format!(
            "{} {items} = {}, spent {}",
            self.name(seat),
            h.value(),
            h.spent
        )
    }

    /// A player's notes: items and value, money spent, cards (or money) left.
    fn details(&self, seat: usize, h: &Holding, winner: bool) -> Vec<Detail> {
        let account = self.name(seat).to_string();
        let items = if h.items.is_empty() {
            "no items (0)".to_string()
        } else {
            format!(
                "items {} ({})",
                h.items
                    .iter()
                    .map(|i| i.letter())
                    .collect::<Vec<_>>()
                    .join(" "),
                h.value()
            )
        };
        let left = match &h.cards_left {
            Some(cards) if cards.is_empty() => "no cards left".to_string(),
            Some(cards) => format!(
                "cards left {}",
                cards
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            None => format!("money left {}", hand::START_MONEY - h.spent),
        };
        vec![
            Detail {
                account: account.clone(),
                text: items,
                tone: if winner { Tone::Good } else { Tone::Plain },
            },
            Detail {
                account: account.clone(),
                text: format!("spent {}", h.spent),
                tone: Tone::Plain,
            },
            Detail {
                account,
                text: left,
                tone: Tone::Plain,
            },
        ]
    }

    /// One round in words for the explanation ("Q: Ann 7+5 = 12 after 1 overtime").
    fn sale_words(&self, sale: &Sale) -> String {
        match sale {
            Sale::Joker => "Joker".into(),
            Sale::Discarded(item) => format!("{}: no bids, discarded", item.letter()),
            Sale::Bought {
                item,
                buyer,
                cards,
                overtime,
                withdrew,
            } => {
                let paid = cards
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join("+");
                let total: i64 = cards.iter().sum();
                let mut w = format!("{}: {} {paid}", item.letter(), self.name(*buyer));
                if cards.len() > 1 {
                    w.push_str(&format!(" = {total}"));
                }
                if *overtime > 0 {
                    w.push_str(&format!(" after {overtime} overtime"));
                }
                if !withdrew.is_empty() {
                    let who: Vec<&str> = withdrew.iter().map(|&s| self.name(s)).collect();
                    w.push_str(&format!(" ({} withdrew)", who.join(", ")));
                }
                w
            }
        }
    }

    /// One game: checked, judged, settled. Nothing changes on error.
    fn play(&mut self, ctx: &mut Ctx<'_>, event: WrittenGame) -> Result<Outcome, RuleError> {
        let game: Game = hand::check_game(event, &self.players)?;
        let number = self.games + 1;
        let verdict = judge(&game.holdings);
        let (postings, paid, pay_steps) = self.settle(ctx.table, &verdict.winners);
        let winner = match verdict.winners.as_slice() {
            [one] => Some(self.name(*one).to_string()),
            _ => None,
        };
        let best = verdict
            .winners
            .first()
            .and_then(|&s| game.holdings.get(s))
            .cloned()
            .unwrap_or_default();
        let how = self.how(&verdict, &best);
        let (why, steps, line) = match ctx.quiet {
            true => (String::new(), Vec::new(), SheetLine::default()),
            false => self.game_shown(number, &game, (winner.as_deref(), &verdict), &how, &paid),
        };
        let steps = steps.into_iter().chain(pay_steps).collect();
        let final_scores = self.final_scores(&game);
        let finished = FinishedGame {
            winner: winner.clone(),
            decided_by: verdict.decided_by.to_string(),
            final_scores: Value::Object(final_scores.clone()),
        };
        let end = GameEnd {
            winner,
            at: Some(best.value()),
            how,
            award: None,
            settlement: paid,
            fresh: Vec::new(),
        };
        self.games += 1;
        Ok(Outcome {
            rules: vec!["rules §1.10".into()],
            postings: postings.into_vec(),
            // Built as a map, not through `json!`, which would serialize the scores again.
            scores_after: Some(Value::Object(Map::from_iter([
                ("game".to_string(), Value::from(number)),
                ("scores".to_string(), Value::Object(final_scores)),
            ]))),
            explanation: why,
            steps,
            line,
            finished: Some((finished, end)),
        })
    }

    /// Game `number` as the sheet shows it: its words ([`Auction::game_words`]), each
    /// player's items as a sum, and its line (title, marks, each holding).
    fn game_shown(
        &self,
        number: usize,
        game: &Game,
        (winner, verdict): (Option<&str>, &Verdict),
        how: &str,
        paid: &str,
    ) -> (String, Vec<Step>, SheetLine) {
        let details = game
            .holdings
            .iter()
            .enumerate()
            .flat_map(|(s, h)| self.details(s, h, verdict.winners.contains(&s)))
            .collect();
        let line = SheetLine {
            marks: game_marks(game, winner),
            details,
            ..SheetLine::titled(if game.sales.is_empty() {
                format!("game {number} (final count)")
            } else {
                format!("game {number}")
            })
        };
        let why = self.game_words(number, game, winner, how, paid);
        (why, self.item_steps(game), line)
    }

    /// Game `number` in words (rules §1.10): sales, holdings, who won and `how`, `paid`.
    fn game_words(
        &self,
        number: usize,
        game: &Game,
        winner: Option<&str>,
        how: &str,
        paid: &str,
    ) -> String {
        let holdings: Vec<String> = game
            .holdings
            .iter()
            .enumerate()
            .map(|(s, h)| self.holding_words(s, h))
            .collect();
        let mut why = format!("Game {number}: ");
        if !game.sales.is_empty() {
            let rounds: Vec<String> = game.sales.iter().map(|s| self.sale_words(s)).collect();
            why.push_str(&format!("{}. ", rounds.join("; ")));
        }
        why.push_str(&format!(
            "{} (J 1, Q 2, K 3, A 4). {}; {paid}",
            holdings.join("; "),
            match winner {
                Some(w) => format!("{w} wins with {how}"),
                None => how.to_string(),
            }
        ));
        why
    }

    /// How the game was decided: items, money spent, or a draw (rules §1.10, §3 item 31).
    fn how(&self, verdict: &Verdict, best: &Holding) -> String {
        let tied = verdict
            .winners
            .iter()
            .map(|&s| self.name(s))
            .collect::<Vec<_>>()
            .join(" and ");
        match verdict.decided_by {
            "items" => format!("the most valuable items, {}", best.value()),
            "least_spent" => format!(
                "items tied at {}, and spent the least, {}",
                best.value(),
                best.spent
            ),
            _ => format!(
                "{tied} tie on items ({}) and money spent ({}): a draw",
                best.value(),
                best.spent
            ),
        }
    }

    /// Each player's items as a sum a player can check ("A 4 + J 1" = 5).
    fn item_steps(&self, game: &Game) -> Vec<Step> {
        game.holdings
            .iter()
            .enumerate()
            .map(|(s, h)| Step::Score {
                who: self.name(s).to_string(),
                sum: if h.items.is_empty() {
                    "no items".into()
                } else {
                    h.items
                        .iter()
                        .map(|i| format!("{} {}", i.letter(), i.value()))
                        .collect::<Vec<_>>()
                        .join(" + ")
                },
                total: h.value(),
                tally: Tally::Points,
            })
            .collect()
    }

    /// The ledger's final scores: each player's item value and money spent.
    fn final_scores(&self, game: &Game) -> Map<String, Value> {
        game.holdings
            .iter()
            .enumerate()
            .map(|(s, h)| {
                (
                    self.name(s).to_string(),
                    json!({ "items": h.value(), "spent": h.spent }),
                )
            })
            .collect()
    }
}

/// The row's marks for a game: its overtimes, the items discarded, and who won.
fn game_marks(game: &Game, winner: Option<&str>) -> Vec<Mark> {
    let mut marks = Vec::new();
    let overtimes = game
        .sales
        .iter()
        .filter(|s| matches!(s, Sale::Bought { overtime, withdrew, .. } if *overtime > 0 || !withdrew.is_empty()))
        .count();
    if overtimes > 0 {
        marks.push(Mark::new(
            if overtimes == 1 {
                "1 overtime".to_string()
            } else {
                format!("{overtimes} overtimes")
            },
            Tone::Plain,
        ));
    }
    let discarded = game
        .sales
        .iter()
        .filter(|s| matches!(s, Sale::Discarded(_)))
        .count();
    if discarded > 0 {
        marks.push(Mark::new(format!("{discarded} discarded"), Tone::Plain));
    }
    marks.push(match winner {
        Some(w) => Mark::new(format!("{w} wins"), Tone::Good),
        None => Mark::new("a draw", Tone::Plain),
    });
    marks
}

impl typed::Game for Auction {
    type Agreements = Agreements;
    type Event = Event;
    const NAME: &'static str = "Auction";
    const ENTER: &'static str = "a game, a payment or the close";
    const RULE: Option<&'static str> = Some("rules §1.10");

    fn new(
        agreements: Agreements,
        players: &[String],
        opening_scores: Option<&Value>,
    ) -> Result<Auction, RuleError> {
        Auction::start(agreements, players, opening_scores)
    }

    fn apply(&mut self, ctx: &mut Ctx<'_>, event: Event) -> Result<Outcome, RuleError> {
        match event {
            Event::Hand(game) => self.play(ctx, game),
        }
    }

    /// Closing pays nothing more: every game is settled in its own event.
    fn close(&mut self, _ctx: &mut Ctx<'_>) -> Result<Outcome, RuleError> {
        Ok(Outcome::new(
            Vec::new(),
            "The sitting is closed",
            SheetLine::titled("closed"),
        ))
    }

    /// One money column per player, in seat order: every game is settled at once.
    fn layout(&self, table: &Table) -> Layout {
        Layout {
            columns: Column::per_player(table.everyone(), Tally::Money),
        }
    }

    fn agreements_summary(&self, currency: &str) -> Vec<(String, String)> {
        form::summary(&self.agreements, currency)
    }

    fn hand_form(&self, _table: &Table) -> HandFormSpec {
        form::offer(&self.players)
    }
}

/// The items in the order the sheet and the form list them, with their values, for words.
pub fn item_values() -> String {
    Item::ITEMS
        .iter()
        .map(|i| format!("{} {}", i.letter(), i.value()))
        .collect::<Vec<_>>()
        .join(", ")
}
