//! Fuzz target: any text through the ICCF parser, and any parsed move through
//! the legality check of a few positions. Must never panic. [pure]
#![no_main]

use libfuzzer_sys::fuzz_target;
use shakmaty::Chess;
use wildt::notation::IccfMove;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(mv) = text.parse::<IccfMove>() {
        // Display must give back exactly what was parsed.
        assert_eq!(mv.to_string(), text);
        let start = Chess::default();
        if let Ok(m) = mv.to_move(&start) {
            assert_eq!(IccfMove::from_move(m), mv);
        }
    }
});
