from jaxko.cli import main

raise SystemExit(main())
