//! Optional and advanced rules (16.0) and scenario options, as named on the command line.

use engine::OptionInfo;
use serde::Serialize;

/// The optional rules in force.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Options {
    /// 16.2 Melee Odds Modifiers.
    pub melee_odds: bool,
    /// 16.6 Unit Type Modifier Table (Optional).
    pub unit_type_modifiers: bool,
    /// The scenario's historical command chits are placed at the start (12.1-15.1 Commands).
    pub historical_commands: bool,
}

/// Every option name, with what it does.
pub fn catalogue() -> Vec<OptionInfo> {
    [
        ("melee-odds", "16.2 Melee Odds Modifiers: odds of 2-1 or better add +1 to +3 to the attacker's melee roll; 1-2 or worse adds +1 to the defender's."),
        ("unit-type-modifiers", "16.6 Unit Type Modifier Table (optional): the attacker's melee roll is modified by attacker type against defender type."),
        ("historical-commands", "12.1/13.1/14.1/15.1 Commands: every leader begins with his historical command chit."),
    ]
    .into_iter()
    .map(|(name, about)| OptionInfo {
        name: name.to_string(),
        about: about.to_string(),
    })
    .collect()
}

impl Options {
    /// Options from their names; an unknown name is an error listing the valid ones.
    pub fn parse(names: &[String]) -> Result<Options, String> {
        let mut o = Options::default();
        for n in names {
            match n.as_str() {
                "melee-odds" => o.melee_odds = true,
                "unit-type-modifiers" => o.unit_type_modifiers = true,
                "historical-commands" => o.historical_commands = true,
                other => {
                    return Err(format!(
                        "unknown option `{other}`; valid: {}",
                        catalogue()
                            .iter()
                            .map(|i| i.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))
                }
            }
        }
        Ok(o)
    }
}
