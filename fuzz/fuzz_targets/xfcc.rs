//! Fuzz target: any bytes as the body of an Xfcc request (SOAP 1.1), as the
//! server reads it: the envelope read into a call or refused, the SAN of a
//! move read in a position, and the fault answered with the refusal's text.
//! Must never panic, and the fault written must be XML the same reader reads
//! (whatever the request held, it is escaped). [pure]
#![no_main]

use libfuzzer_sys::fuzz_target;
use shakmaty::Chess;
use wildt::notation::iccf_from_san;
use wildt::xfcc::soap::{Call, FaultCode, RequestError, fault, parse};

fuzz_target!(|data: &[u8]| {
    match parse(data) {
        Ok(Call::MakeAMove(call)) => {
            // The move as a GUI sends it, read in the initial position.
            let _verdict = iccf_from_san(&Chess::default(), &call.my_move);
            let answer = fault(FaultCode::Client, &call.my_message);
            assert!(
                !matches!(parse(answer.as_bytes()), Err(RequestError::Xml(_))),
                "a fault holding the player's message is not well-formed: {answer}"
            );
        }
        Ok(Call::GetMyGames(_)) => {}
        Err(refused) => {
            let answer = fault(FaultCode::Client, &refused.to_string());
            assert!(
                !matches!(parse(answer.as_bytes()), Err(RequestError::Xml(_))),
                "the fault for {refused:?} is not well-formed: {answer}"
            );
        }
    }
});
