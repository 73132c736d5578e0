//! Auction Pinochle's units tables: how many units (stakes) a bid is worth.

use serde::Deserialize;

/// One band: bids from `lowest_bid` to the next band's are worth `units`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Band {
    /// The lowest bid of the band, in points.
    pub lowest_bid: i64,
    /// Its worth in units.
    pub units: i64,
}

/// A units table: Scarne's standard or bonus (rules §1.1), classic (rules §1.3), or custom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitsTable {
    /// `"standard"`, `"bonus"`, `"classic"` or `"custom"`.
    pub name: &'static str,
    bands: Vec<Band>,
}

/// Scarne's standard table (rules §1.1): 250–290 = 2 … 700+ = 11 ("900 to 640" is 600–640, §4).
const STANDARD: [(i64, i64); 10] = [
    (250, 2),
    (300, 3),
    (350, 4),
    (400, 5),
    (450, 6),
    (500, 7),
    (550, 8),
    (600, 9),
    (650, 10),
    (700, 11),
];
/// Scarne's special bonus table, rules §1.1 (S000), agreed in writing before the game.
const BONUS: [(i64, i64); 10] = [
    (250, 2),
    (300, 3),
    (350, 5),
    (400, 7),
    (450, 10),
    (500, 13),
    (550, 17),
    (600, 21),
    (650, 25),
    (700, 30),
];
/// The classic table of rules §1.3 (S002; "900 and more" read as 600, rules §4).
const CLASSIC: [(i64, i64); 7] = [
    (300, 3),
    (350, 5),
    (400, 10),
    (450, 15),
    (500, 20),
    (550, 25),
    (600, 30),
];

/// The `units_table` agreement as written: a preset's name or `[lowest_bid, units]` pairs.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum UnitsTableSpec {
    /// `"standard"`, `"bonus"` or `"classic"`.
    Preset(String),
    /// `[[250, 2], [300, 3], …]`.
    Custom(Vec<(i64, i64)>),
}

impl UnitsTable {
    /// Scarne's standard table (rules §1.1).
    pub fn standard() -> UnitsTable {
        UnitsTable::from_pairs("standard", &STANDARD)
    }

    fn from_pairs(name: &'static str, pairs: &[(i64, i64)]) -> UnitsTable {
        UnitsTable {
            name,
            bands: pairs
                .iter()
                .map(|&(lowest_bid, units)| Band { lowest_bid, units })
                .collect(),
        }
    }

    /// The table an agreement names. Errors: unknown preset; custom empty, not rising, not
    /// in tens, or units outside 1–10,000.
    pub fn from_spec(spec: &UnitsTableSpec) -> Result<UnitsTable, String> {
        match spec {
            UnitsTableSpec::Preset(name) => match name.as_str() {
                "standard" => Ok(UnitsTable::standard()),
                "bonus" => Ok(UnitsTable::from_pairs("bonus", &BONUS)),
                "classic" => Ok(UnitsTable::from_pairs("classic", &CLASSIC)),
                other => Err(format!(
                    "\"{other}\" is not a units table; use \"standard\", \"bonus\", \"classic\" or a list of [lowest_bid, units] pairs (rules §1.1, §1.3)"
                )),
            },
            UnitsTableSpec::Custom(pairs) => {
                if pairs.is_empty() {
                    return Err(
                        "a custom units table needs at least one [lowest_bid, units] pair".into(),
                    );
                }
                for (i, &(bid, units)) in pairs.iter().enumerate() {
                    if bid <= 0 || bid % 10 != 0 {
                        return Err(format!(
                            "band {i}: lowest bid {bid} must be a positive multiple of 10 (rules §0.3)"
                        ));
                    }
                    if !(1..=10_000).contains(&units) {
                        return Err(format!(
                            "band {i}: {units} units must be between 1 and 10000"
                        ));
                    }
                    if i > 0 && bid <= pairs[i - 1].0 {
                        return Err(format!(
                            "band {i}: lowest bids must rise ({bid} follows {})",
                            pairs[i - 1].0
                        ));
                    }
                }
                Ok(UnitsTable::from_pairs("custom", pairs))
            }
        }
    }

    /// The lowest bid the table prices, in points.
    pub fn lowest_bid(&self) -> i64 {
        self.bands.first().map_or(0, |b| b.lowest_bid)
    }

    /// The band that prices `bid`, or `None` below the table.
    pub fn band(&self, bid: i64) -> Option<Band> {
        self.bands
            .iter()
            .rev()
            .find(|b| b.lowest_bid <= bid)
            .copied()
    }

    /// The units a bid is worth, or `None` below the table.
    pub fn units(&self, bid: i64) -> Option<i64> {
        self.band(bid).map(|b| b.units)
    }

    /// Words for the band of `bid`, e.g. `"350–390"` or `"700 or over"`.
    pub fn band_label(&self, bid: i64) -> String {
        let Some(i) = self.bands.iter().rposition(|b| b.lowest_bid <= bid) else {
            return format!("below {}", self.lowest_bid());
        };
        match self.bands.get(i + 1) {
            Some(next) => format!("{}–{}", self.bands[i].lowest_bid, next.lowest_bid - 10),
            None => format!("{} or over", self.bands[i].lowest_bid),
        }
    }

    /// Its source: `"rules §1.1"`, `"rules §1.3"` or `"agreed at the table"`.
    pub fn source(&self) -> &'static str {
        match self.name {
            "standard" | "bonus" => "rules §1.1",
            "classic" => "rules §1.3",
            _ => "agreed at the table",
        }
    }

    /// Every band, lowest first.
    pub fn bands(&self) -> &[Band] {
        &self.bands
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn preset(name: &str) -> UnitsTable {
        UnitsTable::from_spec(&UnitsTableSpec::Preset(name.into())).unwrap()
    }

    #[test]
    fn standard_follows_scarnes_closed_form() {
        let t = preset("standard");
        for bid in (250..=1000).step_by(10) {
            assert_eq!(
                t.units(bid),
                Some((2 + (bid - 250) / 50).min(11)),
                "bid {bid}"
            );
        }
        assert_eq!(t.units(240), None);
        assert_eq!(t.band_label(610), "600–640");
        assert_eq!(t.band_label(720), "700 or over");
    }

    #[test]
    fn bonus_table_rows() {
        let t = preset("bonus");
        let expect = [
            (250, 2),
            (290, 2),
            (350, 5),
            (400, 7),
            (450, 10),
            (500, 13),
            (550, 17),
            (640, 21),
            (650, 25),
            (990, 30),
        ];
        for (bid, units) in expect {
            assert_eq!(t.units(bid), Some(units), "bid {bid}");
        }
    }

    #[test]
    fn classic_table_starts_at_300_and_reads_600_for_900() {
        let t = preset("classic");
        assert_eq!(t.lowest_bid(), 300);
        assert_eq!(t.units(290), None);
        assert_eq!(t.units(340), Some(3));
        assert_eq!(t.units(390), Some(5));
        assert_eq!(t.units(440), Some(10));
        assert_eq!(t.units(590), Some(25));
        assert_eq!(t.units(620), Some(30));
    }

    #[test]
    fn custom_tables_are_checked() {
        let ok = UnitsTable::from_spec(&UnitsTableSpec::Custom(vec![(300, 1), (350, 2), (400, 4)]))
            .unwrap();
        assert_eq!(ok.units(380), Some(2));
        assert!(UnitsTable::from_spec(&UnitsTableSpec::Custom(vec![])).is_err());
        assert!(UnitsTable::from_spec(&UnitsTableSpec::Custom(vec![(300, 1), (300, 2)])).is_err());
        assert!(UnitsTable::from_spec(&UnitsTableSpec::Custom(vec![(305, 1)])).is_err());
        assert!(UnitsTable::from_spec(&UnitsTableSpec::Preset("fancy".into())).is_err());
    }
}
