//! Random operation sequences give the same results on the store and on a plain reference
//! model (tests/common), including errors, and leave the same history behind.

// Inside proptest! blocks clippy does not see a test: a failing unwrap is a failing test
// (clippy.toml allows it in tests).
#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use kubewasm_store::Store;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn store_matches_the_reference_model(ops in proptest::collection::vec(op(), 1..80)) {
        let mut store = Store::new();
        let mut model = Model::default();
        let (mut store_now, mut model_now) = (0i64, 0i64);
        for (i, op) in ops.iter().enumerate() {
            let got = run(&mut store, op, &mut store_now);
            let want = run(&mut model, op, &mut model_now);
            prop_assert_eq!(got, want, "op {} {:?}", i, op);
            prop_assert_eq!(store.current_revision(), model.current);
        }
        prop_assert_eq!(full_view(&store), full_view(&model));
        // A snapshot restores the same history.
        let restored = Store::restore(&store.snapshot()).unwrap();
        prop_assert_eq!(full_view(&restored), full_view(&model));
    }
}
