//! A game state stays small (issue 5: under 64 KiB), so that search can copy it freely: the
//! battle's static data is shared, and only what changes is in the state.

mod common;

#[test]
fn a_game_state_is_under_64_kib() {
    for scenario in ["hattin", "hab", "nicopolis", "tannenburg"] {
        let mut s = common::start(scenario, &[], 1);
        for side in s.battle.seats.clone() {
            if common::legal(&s, &side)
                .iter()
                .any(|a| a == "deploy-historical")
            {
                common::act(&mut s, &side, "deploy-historical", &[]);
            }
        }
        // The serialised state (JSON, larger than the state in memory) bounds its size.
        let bytes = serde_json::to_vec(&s).unwrap().len();
        let in_memory = std::mem::size_of_val(&s)
            + s.units.capacity() * std::mem::size_of::<crusades_ii::state::Unit>()
            + s.leaders.capacity() * std::mem::size_of::<crusades_ii::state::Leader>();
        assert!(bytes < 64 * 1024, "{scenario}: {bytes} bytes of JSON");
        assert!(
            in_memory < 64 * 1024,
            "{scenario}: {in_memory} bytes in memory"
        );
        assert!(
            bytes > 1000,
            "{scenario}: the state holds its units ({bytes} bytes)"
        );
    }
}
