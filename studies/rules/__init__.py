"""The pure side of studies (no Django; an import-linter contract checks it): a study's design read from
its JSON configuration (`design`), and the matcher's rules (`matching`): the counterbalanced ticket
sequence drawn from the seed, partner choice, role choice. The services apply them to the database."""
