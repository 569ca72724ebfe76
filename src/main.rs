use clap::Parser;

fn main() {
    let cli = referee::cli::Cli::parse();
    let code = match referee::cli::run(cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("referee: error: {error}");
            2
        }
    };
    std::process::exit(code);
}
