//! Check Pinochle's check tables (rules §1.7 "Checks"): what melds, contracts, slam, count
//! and game are worth in checks. Pure lookups.
//!
//! Presets: `hoyle` (BIC-CHK, all sourced; default) and `scarne` (S003, whose band numbers
//! the seed lacks, so the table supplies them), or a custom table (rules §3 item 19).

use serde::Deserialize;

/// A check-bearing meld as listed in a hand's `meld_checks` (rules §1.7).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, serde::Serialize,
)]
#[serde(rename_all = "snake_case")]
pub enum MeldCheck {
    /// A-10-K-Q-J of trump.
    Flush,
    /// One ace in each suit.
    #[serde(rename = "aces_100")]
    Aces100,
    /// One king in each suit.
    #[serde(rename = "kings_80")]
    Kings80,
    /// One queen in each suit.
    #[serde(rename = "queens_60")]
    Queens60,
    /// One jack in each suit.
    #[serde(rename = "jacks_40")]
    Jacks40,
    /// Both Q♠ and both J♦.
    DoublePinochle,
    /// Four kings and four queens of different suits (S003 "round trip" in BIC-CHK).
    Roundhouse,
}

impl MeldCheck {
    /// Every check-bearing meld in document order.
    pub const ALL: [MeldCheck; 7] = [
        MeldCheck::Flush,
        MeldCheck::Aces100,
        MeldCheck::Kings80,
        MeldCheck::Queens60,
        MeldCheck::Jacks40,
        MeldCheck::DoublePinochle,
        MeldCheck::Roundhouse,
    ];

    /// The id used in documents (`"aces_100"`).
    pub fn id(self) -> &'static str {
        match self {
            MeldCheck::Flush => "flush",
            MeldCheck::Aces100 => "aces_100",
            MeldCheck::Kings80 => "kings_80",
            MeldCheck::Queens60 => "queens_60",
            MeldCheck::Jacks40 => "jacks_40",
            MeldCheck::DoublePinochle => "double_pinochle",
            MeldCheck::Roundhouse => "roundhouse",
        }
    }

    /// The table's words (`"100 aces"`).
    pub fn words(self) -> &'static str {
        match self {
            MeldCheck::Flush => "flush",
            MeldCheck::Aces100 => "100 aces",
            MeldCheck::Kings80 => "80 kings",
            MeldCheck::Queens60 => "60 queens",
            MeldCheck::Jacks40 => "40 jacks",
            MeldCheck::DoublePinochle => "double pinochle",
            MeldCheck::Roundhouse => "roundhouse",
        }
    }

    /// The fewest meld points this meld brings under any table (rules §1.0; §3 item 30;
    /// roundhouse 240 [R]), to refuse melds a side's total cannot contain.
    pub fn least_points(self) -> i64 {
        match self {
            MeldCheck::Flush => 150,
            MeldCheck::Aces100 => 100,
            MeldCheck::Kings80 => 80,
            MeldCheck::Queens60 => 60,
            MeldCheck::Jacks40 => 40,
            MeldCheck::DoublePinochle => 80,
            MeldCheck::Roundhouse => 240,
        }
    }

    /// How often the meld can occur in one deal: twice, once for double pinochle.
    pub fn most_per_deal(self) -> usize {
        match self {
            MeldCheck::DoublePinochle => 1,
            _ => 2,
        }
    }

    /// The meld's position in [`MeldCheck::ALL`], for per-kind tallies.
    pub fn index(self) -> usize {
        match self {
            MeldCheck::Flush => 0,
            MeldCheck::Aces100 => 1,
            MeldCheck::Kings80 => 2,
            MeldCheck::Queens60 => 3,
            MeldCheck::Jacks40 => 4,
            MeldCheck::DoublePinochle => 5,
            MeldCheck::Roundhouse => 6,
        }
    }
}

/// Checks per occurrence of each check-bearing meld.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeldValues([i64; 7]);

impl MeldValues {
    /// BIC-CHK's meld checks, the only sourced numbers (rules §1.7; TIME40 agrees on aces).
    pub const HOYLE: MeldValues = MeldValues([2, 2, 1, 1, 1, 2, 5]);

    /// Checks for one occurrence of `meld`.
    pub fn get(&self, meld: MeldCheck) -> i64 {
        self.0[meld.index()]
    }

    /// Sets the checks for `meld`.
    pub fn set(&mut self, meld: MeldCheck, checks: i64) {
        self.0[meld.index()] = checks;
    }
}

/// One band: bids from `lowest_bid` to the next band's are worth `checks`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Band {
    /// The lowest bid of the band, in points.
    pub lowest_bid: i64,
    /// Its worth in checks.
    pub checks: i64,
}

/// The open-ended steps above the last band (rules §1.7 "each further 50 above 590").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Further {
    /// The lowest bid of the first step, in points (600 in both presets).
    pub from: i64,
    /// The width of a step, in points (50).
    pub every: i64,
    /// Checks added per step for the making side (Hoyle 5, Scarne 3).
    pub make: i64,
    /// Checks added per step for the defeating side (Hoyle 10, Scarne 6).
    pub defeat: i64,
}

/// A check table for contracts, slam and count (meld checks and game award are separate).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckTable {
    /// `"hoyle"`, `"scarne"` or `"custom"`.
    pub name: &'static str,
    make: Vec<Band>,
    /// Defeat bands; `None` is twice the make value (S003; BIC-CHK).
    defeat: Option<Vec<Band>>,
    further: Option<Further>,
    /// Checks for winning all 12 tricks (5 in both sources).
    pub slam: i64,
    /// Checks for taking all 250 of the count in one deal (Scarne 4; not in BIC-CHK, 0).
    pub all_count: i64,
}

/// The lowest bid at every seat, in points (rules §1.7 bidding rule 2, S003 and BIC-CHK).
pub const MIN_BID: i64 = 200;

/// The highest bid the priced bands cover before the "each further 50" steps (rules §1.7).
pub const TOP_OF_BANDS: i64 = 590;

/// BIC-CHK's make checks by band, 200–240 = 2 up to 550–590 = 30 (rules §1.7, Hoyle).
const HOYLE_MAKE: [(i64, i64); 8] = [
    (200, 2),
    (250, 4),
    (300, 7),
    (350, 10),
    (400, 15),
    (450, 20),
    (500, 25),
    (550, 30),
];

impl CheckTable {
    /// The `hoyle` preset (BIC-CHK, rules §1.7): +5 per further 50, defeat doubled, slam 5.
    pub fn hoyle() -> CheckTable {
        CheckTable {
            name: "hoyle",
            make: bands(&HOYLE_MAKE),
            defeat: None,
            further: Some(Further {
                from: TOP_OF_BANDS + 10,
                every: 50,
                make: 5,
                defeat: 10,
            }),
            slam: 5,
            all_count: 0,
        }
    }

    /// The `scarne` preset (S003, rules §1.7): the bands as agreed (S003's are lost), +3/+6
    /// per further 50, slam 5, count 4. Errors: [`check_bands`]; a band above 590.
    pub fn scarne(pairs: &[(i64, i64)]) -> Result<CheckTable, String> {
        check_bands(pairs)?;
        if let Some(&(bid, _)) = pairs.iter().find(|p| p.0 > TOP_OF_BANDS) {
            return Err(format!(
                "a scarne band starts at {bid}, above 590, where Scarne's +3 per further 50 applies (rules §1.7, S003)"
            ));
        }
        Ok(CheckTable {
            name: "scarne",
            make: bands(pairs),
            defeat: None,
            further: Some(Further {
                from: TOP_OF_BANDS + 10,
                every: 50,
                make: 3,
                defeat: 6,
            }),
            slam: 5,
            all_count: 4,
        })
    }

    /// A custom table (rules §3 item 19). Errors: bad bands or steps, negative checks.
    pub fn custom(
        make: &[(i64, i64)],
        defeat: Option<&[(i64, i64)]>,
        further: Option<Further>,
        slam: i64,
        all_count: i64,
    ) -> Result<CheckTable, String> {
        check_bands(make).map_err(|m| format!("make_checks: {m}"))?;
        if let Some(d) = defeat {
            check_bands(d).map_err(|m| format!("defeat_checks: {m}"))?;
        }
        if let Some(f) = further {
            let last = make
                .iter()
                .chain(defeat.unwrap_or(&[]))
                .map(|p| p.0)
                .max()
                .unwrap_or(MIN_BID);
            if f.from <= last || f.from % 10 != 0 {
                return Err(format!(
                    "further.from: {} must be a multiple of 10 above the last band's lowest bid {last}",
                    f.from
                ));
            }
            if f.every <= 0 || f.every % 10 != 0 {
                return Err(format!(
                    "further.every: {} must be a positive multiple of 10",
                    f.every
                ));
            }
            if !(0..=MAX_CHECKS).contains(&f.make) || !(0..=MAX_CHECKS).contains(&f.defeat) {
                return Err(format!(
                    "further: checks must be between 0 and {MAX_CHECKS}"
                ));
            }
        }
        for (name, v) in [("slam", slam), ("all_count", all_count)] {
            if !(0..=MAX_CHECKS).contains(&v) {
                return Err(format!("{name}: {v} must be between 0 and {MAX_CHECKS}"));
            }
        }
        Ok(CheckTable {
            name: "custom",
            make: bands(make),
            defeat: defeat.map(bands),
            further,
            slam,
            all_count,
        })
    }

    /// Steps of `further` that `bid` reaches (0 below `from`).
    fn steps(&self, bid: i64) -> i64 {
        match self.further {
            Some(f) if bid >= f.from => (bid - f.from) / f.every + 1,
            _ => 0,
        }
    }

    /// Checks for making `bid` (rules §1.7): its band plus further steps; 0 below 200.
    pub fn make_checks(&self, bid: i64) -> i64 {
        let base = band(&self.make, bid).map_or(0, |b| b.checks);
        base + self.steps(bid) * self.further.map_or(0, |f| f.make)
    }

    /// Checks for defeating `bid` (rules §1.7): double the band (S003, BIC-CHK) or custom.
    pub fn defeat_checks(&self, bid: i64) -> i64 {
        let base = match &self.defeat {
            None => 2 * band(&self.make, bid).map_or(0, |b| b.checks),
            Some(d) => band(d, bid).map_or(0, |b| b.checks),
        };
        base + self.steps(bid) * self.further.map_or(0, |f| f.defeat)
    }

    /// The band pricing `bid` in words: `"300–340"`, `"600–640"`, or `"550 or over"`.
    pub fn band_label(&self, bid: i64) -> String {
        if let Some(f) = self.further
            && bid >= f.from
        {
            let low = f.from + (self.steps(bid) - 1) * f.every;
            return format!("{low}–{}", low + f.every - 10);
        }
        let Some(i) = self.make.iter().rposition(|b| b.lowest_bid <= bid) else {
            return format!("below {MIN_BID}");
        };
        let next = self
            .make
            .get(i + 1)
            .map(|b| b.lowest_bid)
            .or(self.further.map(|f| f.from));
        match next {
            Some(n) => format!("{}–{}", self.make[i].lowest_bid, n - 10),
            None => format!("{} or over", self.make[i].lowest_bid),
        }
    }
}

/// The most checks any table entry may hold: keeps a typo from an absurd payment.
pub const MAX_CHECKS: i64 = 10_000;

/// Checks `[lowest_bid, checks]` pairs: from 200 (rules §1.7), in tens (rules §0.3).
pub fn check_bands(pairs: &[(i64, i64)]) -> Result<(), String> {
    let Some(&(first, _)) = pairs.first() else {
        return Err("give at least one [lowest_bid, checks] pair, starting at 200".into());
    };
    if first != MIN_BID {
        return Err(format!(
            "the first band starts at {first}; it must start at the minimum bid 200 (rules §1.7)"
        ));
    }
    for (i, &(bid, checks)) in pairs.iter().enumerate() {
        if bid % 10 != 0 {
            return Err(format!(
                "band {i}: lowest bid {bid} is not a multiple of 10 (rules §0.3)"
            ));
        }
        if i > 0 && bid <= pairs[i - 1].0 {
            return Err(format!(
                "band {i}: lowest bids must rise ({bid} follows {})",
                pairs[i - 1].0
            ));
        }
        if !(0..=MAX_CHECKS).contains(&checks) {
            return Err(format!(
                "band {i}: {checks} checks must be between 0 and {MAX_CHECKS}"
            ));
        }
    }
    Ok(())
}

fn bands(pairs: &[(i64, i64)]) -> Vec<Band> {
    pairs
        .iter()
        .map(|&(lowest_bid, checks)| Band { lowest_bid, checks })
        .collect()
}

fn band(bands: &[Band], bid: i64) -> Option<Band> {
    bands.iter().rev().find(|b| b.lowest_bid <= bid).copied()
}

/// The checks for winning the game (rules §1.7, §3 item 20).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameAward {
    /// Scarne (S003): 7 checks.
    Scarne,
    /// BIC-CHK: 10 + 1 per 100 (or part) of the margin, + 5 if the losers are below zero.
    Hoyle,
    /// TIME40: 15 checks for reaching 1,000 first.
    Time1940,
    /// A fixed number of checks agreed at the table.
    Fixed(i64),
}

impl GameAward {
    /// The winners' checks and words; a negative Hoyle margin adds nothing [R].
    pub fn checks(self, winner: i64, loser: i64) -> (i64, String) {
        match self {
            GameAward::Scarne => (7, "game, Scarne".into()),
            GameAward::Time1940 => (15, "game, TIME 1940".into()),
            GameAward::Fixed(n) => (n, "game, as agreed".into()),
            GameAward::Hoyle => {
                let margin = (winner - loser).max(0);
                let per_hundred = (margin + 99) / 100;
                let minus = if loser < 0 { 5 } else { 0 };
                let mut words = format!("game, Hoyle: 10 + {per_hundred} for the margin {margin}");
                if minus > 0 {
                    words.push_str(" + 5, the losers are minus");
                }
                (10 + per_hundred + minus, words)
            }
        }
    }
}

#[cfg(test)]
#[path = "checks_tests.rs"]
mod tests;
