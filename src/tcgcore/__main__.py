from tcgcore.cli import main

raise SystemExit(main())
