//! Benchmark helper: creates many games quickly through the real code path
//! (`organise::create_game`, as `wildt game new --no-mail` does), for the scale
//! benchmark (`benches/harness/bench_scale.py`). Prints the last `KEEP` games as JSON
//! lines `{"id", "white": [email, address], "black": [...]}`.
//! Does IO: the SQLite database named in the config.
//!
//! Usage: `bench_mkgames CONFIG COUNT KEEP`

use std::path::Path;

use wildt::config::Config;
use wildt::decide::game_address;
use wildt::organise::{self, Mailing, NewGame};
use wildt::store::Store;

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let [_, cfg, count, keep] = args.as_slice() else {
        anyhow::bail!("usage: bench_mkgames CONFIG COUNT KEEP");
    };
    let config = Config::load(Path::new(cfg))?;
    let (count, keep): (usize, usize) = (count.parse()?, keep.parse()?);
    let store = Store::for_config(&config).await?;
    for i in 0..count {
        let white = format!("w{i}@players.example");
        let black = format!("b{i}@players.example");
        let g = organise::create_game(
            &store,
            &config.referee,
            config.limits.games_per_player,
            NewGame {
                time: wildt::clock::TimeControl::None,
                white_lang: None,
                black_lang: None,
                white: &white,
                black: &black,
                fen: None,
                event: None,
            },
            Mailing::NoMail,
        )
        .await?;
        if i + keep >= count {
            let r = &config.referee;
            let line = serde_json::json!({
                "id": g.view.id,
                "white": [g.view.white.email, game_address(r, g.view.id, &g.view.white.key)],
                "black": [g.view.black.email, game_address(r, g.view.id, &g.view.black.key)],
            });
            println!("{line}");
        }
    }
    store.close().await;
    Ok(())
}
