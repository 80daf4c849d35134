//! Fuzz target: any bytes as a mail through the whole intake (raw bytes ->
//! decision input). Must never panic and must finish quickly. [pure]
#![no_main]

use libfuzzer_sys::fuzz_target;
use wildt::intake::{IntakeConfig, read};

fuzz_target!(|data: &[u8]| {
    let cfg = IntakeConfig {
        referee_local: "chess".to_owned(),
        referee_domain: "club.example".to_owned(),
        max_message_bytes: 1024 * 1024,
    };
    let intake = read(data, &cfg);
    std::hint::black_box(intake);
});
