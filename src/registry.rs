//! The registered games: each rules game ([`crate::rules::GAMES`]) with its hand-form
//! template (`templates/games/<id>/hand_form.html`); a test checks both lists agree.

use crate::ids::SessionId;
use crate::rules::GameInfo;
use crate::rules::game::HandFormSpec;

/// What every hand-form template gets: the session, the seats, the form's values and
/// refused field, and the game's offer ([`HandFormSpec`]).
#[derive(Debug, Clone)]
pub struct HandFormData {
    /// The session's id, for the form's action.
    pub session_id: SessionId,
    /// The players seated now, clockwise.
    pub seated: Vec<String>,
    /// How many events the page saw, so a second phone's entry is caught (409).
    pub expected_events: usize,
    /// The form's values by field name (`"bid"`, `"points.high"`).
    pub values: std::collections::HashMap<String, String>,
    /// The field a refusal names, marked `aria-invalid`.
    pub error_field: Option<String>,
    /// What the game offers on its form.
    pub spec: HandFormSpec,
    /// Recorded → shown name for renamed players ([`crate::history::names`]): labels show the
    /// new name, values keep the recorded one.
    pub names: std::collections::BTreeMap<String, String>,
    /// The hand as recorded, by field, when the form corrects one (else empty): what the
    /// form says "was entered" reads these, never the values a refusal sends back.
    pub entered: std::collections::HashMap<String, String>,
    /// The session's currency (`"USD"`), so the form writes money as the sheet does.
    pub currency: String,
}

impl HandFormData {
    /// The label for recorded name `name`: the club's display name, else `name`.
    pub fn label<'a>(&'a self, name: &'a str) -> &'a str {
        self.names.get(name).map_or(name, String::as_str)
    }

    /// The value of `field`, empty when none.
    pub fn value(&self, field: &str) -> String {
        self.values.get(field).cloned().unwrap_or_default()
    }

    /// Whether `field` holds `option` (a selected option).
    pub fn selected(&self, field: &str, option: &str) -> bool {
        self.values.get(field).is_some_and(|v| v == option)
    }

    /// Whether the hand being corrected was recorded with `field` holding `option`.
    pub fn was_entered(&self, field: &str, option: &str) -> bool {
        self.entered.get(field).is_some_and(|v| v == option)
    }

    /// Whether a checkbox `field` is ticked.
    pub fn checked(&self, field: &str) -> bool {
        self.values
            .get(field)
            .is_some_and(|v| v == "true" || v == "on")
    }

    /// Whether `field` holds anything but blanks.
    pub fn has(&self, field: &str) -> bool {
        self.values.get(field).is_some_and(|v| !v.trim().is_empty())
    }

    /// Whether the form carried `field`, even empty (a correction fills only unseen fields).
    pub fn given(&self, field: &str) -> bool {
        self.values.contains_key(field)
    }

    /// Whether a refusal names `field`.
    pub fn invalid(&self, field: &str) -> bool {
        self.error_field.as_deref() == Some(field)
    }

    /// A count field's value, empty for zero (so a stepper starts empty).
    pub fn count(&self, field: &str) -> String {
        match self.values.get(field).map(|v| v.trim()) {
            None | Some("0") | Some("") => String::new(),
            Some(v) => v.to_string(),
        }
    }

    /// `amount` (`"0.05"`) as every page writes money: "$0.05", "0.05 CHF"
    /// ([`crate::money::with_currency`]).
    pub fn money(&self, amount: &str) -> String {
        crate::money::with_currency(amount, &self.currency)
    }

    /// Whether this form corrects an earlier hand.
    pub fn correcting(&self) -> bool {
        self.has("correct_event")
    }
}

/// A registered game with its hand form.
pub struct Registration {
    /// The game's rules registration.
    pub game: &'static GameInfo,
    /// The path of its hand-form template under `templates/`.
    pub template: &'static str,
    /// Renders its hand form.
    pub render_hand_form: fn(&HandFormData) -> Result<String, askama::Error>,
}

macro_rules! registry {
    ($($id:ident => $template:tt),* $(,)?) => {
        /// Every game the service keeps, in the order they are offered.
        pub static GAMES: &[Registration] = &[$(
            Registration {
                game: &crate::rules::$id::GAME,
                template: $template,
                render_hand_form: {
                    #[derive(askama::Template)]
                    #[template(path = $template)]
                    struct HandForm<'a> {
                        f: &'a HandFormData,
                    }
                    fn render(f: &HandFormData) -> Result<String, askama::Error> {
                        askama::Template::render(&HandForm { f })
                    }
                    render
                },
            }
        ),*];
    };
}

registry! {
    auction_pinochle => "games/auction_pinochle/hand_form.html",
    auction_pitch => "games/auction_pitch/hand_form.html",
    check_pinochle => "games/check_pinochle/hand_form.html",
    partnership_pinochle => "games/partnership_pinochle/hand_form.html",
    partnership_auction_pinochle => "games/partnership_auction_pinochle/hand_form.html",
    contract_pinochle => "games/contract_pinochle/hand_form.html",
    two_handed_pinochle => "games/two_handed_pinochle/hand_form.html",
    auction_game => "games/auction_game/hand_form.html",
    poker => "games/poker/hand_form.html",
    house_game => "games/house_game/hand_form.html",
}

/// The registered game with this id.
pub fn find(id: &str) -> Option<&'static Registration> {
    GAMES.iter().find(|r| r.game.id == id)
}

/// The rules registration of the game with this id.
pub fn game(id: &str) -> Option<&'static GameInfo> {
    find(id).map(|r| r.game)
}

pub use crate::rules::known;

#[cfg(test)]
mod list_tests {
    /// Rules games and registered games are the same, in the same order.
    #[test]
    fn the_registry_registers_exactly_the_rules_games() {
        let registered: Vec<&str> = super::GAMES.iter().map(|r| r.game.id).collect();
        let kept: Vec<&str> = crate::rules::GAMES.iter().map(|g| g.id).collect();
        assert_eq!(registered, kept);
    }
}

#[cfg(test)]
mod defaults_tests {
    use std::collections::HashMap;

    use serde_json::{Map, Value};

    use super::GAMES;
    use crate::rules::SpecKind;
    use crate::rules::game::{AgreementSpec, GameInfo, agreements_from_form};

    /// The agreements in words for `agreements`; `None` when refused.
    fn summary(game: &GameInfo, agreements: &Map<String, Value>) -> Option<Vec<(String, String)>> {
        let players: Vec<String> = (1..=game.seats.0).map(|i| format!("P{i}")).collect();
        let engine = (game.start)(agreements, &players, None).ok()?;
        Some(engine.agreements_summary("USD"))
    }

    /// The agreements written: each `(spec, text)` as the form would submit it.
    fn written(set: &[(&AgreementSpec, &str)]) -> Map<String, Value> {
        let mut m = Map::new();
        for (spec, text) in set {
            if let Some(v) = spec.to_json(text).unwrap() {
                m.insert(spec.name.to_string(), v);
            }
        }
        m
    }

    /// The other values an agreement may take, to see that the sheet shows it.
    fn others(spec: &AgreementSpec) -> Vec<String> {
        match spec.kind {
            SpecKind::Money => vec![
                if spec.default == "0.10" {
                    "0.20"
                } else {
                    "0.10"
                }
                .into(),
            ],
            SpecKind::Number => spec
                .default
                .parse::<i64>()
                .map(|n| vec![(n * 2).to_string()])
                .unwrap_or_default(),
            SpecKind::Tick => vec!["yes".into()],
            _ => spec
                .options()
                .into_iter()
                .map(|(v, _)| v)
                .filter(|v| v != spec.default)
                .collect(),
        }
    }

    /// Every game's new-session form, defaults untouched, starts the session the rules start
    /// with no agreement written; compared by the agreements in words, whole and one by one.
    #[test]
    fn the_forms_defaults_are_the_rules_defaults_for_every_game() {
        for registration in GAMES {
            let game = registration.game;
            let form: HashMap<String, String> = game
                .agreements
                .iter()
                .map(|s| (format!("a.{}", s.name), s.default.to_string()))
                .collect();
            let from_form = agreements_from_form(game.agreements, &form).unwrap();
            assert_eq!(
                summary(game, &from_form),
                summary(game, &Map::new()),
                "{}",
                game.id
            );
            // An empty default writes nothing: the rules' own default applies by construction.
            for spec in game.agreements.iter().filter(|s| !s.default.is_empty()) {
                let mut contexts: Vec<Vec<(&AgreementSpec, String)>> = vec![Vec::new()];
                for c in game.agreements.iter().filter(|c| c.name != spec.name) {
                    contexts.extend(others(c).into_iter().map(|v| vec![(c, v)]));
                }
                let shown = contexts.iter().find_map(|context| {
                    let with = |text: &str| {
                        let mut set: Vec<(&AgreementSpec, &str)> =
                            context.iter().map(|(c, v)| (*c, v.as_str())).collect();
                        set.push((spec, text));
                        written(&set)
                    };
                    let ctx: Vec<(&AgreementSpec, &str)> =
                        context.iter().map(|(c, v)| (*c, v.as_str())).collect();
                    let bare = summary(game, &written(&ctx))?;
                    let differs = others(spec)
                        .iter()
                        .any(|o| summary(game, &with(o)).is_some_and(|s| s != bare));
                    differs.then(|| (summary(game, &with(spec.default)), bare))
                });
                // Where no other value starts a session (Check's `scarne`, `custom`), the whole-form
                // comparison above covers the default.
                let starts = others(spec)
                    .iter()
                    .any(|o| summary(game, &written(&[(spec, o.as_str())])).is_some());
                if !starts {
                    continue;
                }
                let Some((defaulted, bare)) = shown else {
                    panic!(
                        "{}: {} never shows on the sheet, so its default cannot be compared",
                        game.id, spec.name
                    );
                };
                assert_eq!(
                    defaulted,
                    Some(bare),
                    "{}: the form's default {} = {:?} is not the rules' default",
                    game.id,
                    spec.name,
                    spec.default
                );
            }
        }
    }
}
