//! The one list of games, apart from both of its readers so neither depends on the other:
//! [`crate::rules`] declares a rules module per line and [`crate::registry`] registers each
//! game with its hand-form template. Adding a game adds one line here.

/// The one list of games: each line a rules module under `src/rules/` and its hand-form
/// template under `templates/`. Handed to `$then!`, so the same list declares the rules
/// modules ([`crate::rules`]) and builds the registry's `GAMES` ([`crate::registry`]).
macro_rules! every_game {
    ($then:ident) => {
        $then! {
            auction_pinochle => "games/auction_pinochle/hand_form.html",
            auction_pitch => "games/auction_pitch/hand_form.html",
            check_pinochle => "games/check_pinochle/hand_form.html",
            partnership_pinochle => "games/partnership_pinochle/hand_form.html",
            partnership_auction_pinochle => "games/partnership_auction_pinochle/hand_form.html",
            contract_pinochle => "games/contract_pinochle/hand_form.html",
            two_handed_pinochle => "games/two_handed_pinochle/hand_form.html",
            auction_game => "games/auction_game/hand_form.html",
            poker => "games/poker/hand_form.html",
        }
    };
}
pub(crate) use every_game;
