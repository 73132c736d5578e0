use std::io::Read;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let path = &args[2];
    let mut text = String::new();
    if path == "-" {
        std::io::stdin().read_to_string(&mut text).unwrap();
    } else {
        text = std::fs::read_to_string(path).unwrap();
    }
    let doc: scorekeeper::format::SessionDoc = match serde_json::from_str(&text) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    match scorekeeper::format::replay(&doc) {
        Ok(l) => {
            println!("{}", serde_json::to_string_pretty(&l).unwrap());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}
