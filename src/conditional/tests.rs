//! Tests of conditional moves: reading, checking, storing and applying sets. [pure: no IO]
