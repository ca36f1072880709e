package api

import "time"

// NotYetVisibleGrace is the service's visibility delay: how long a run it
// has just created may be missing from the run list, and answered 404 by
// the operations that name it. A wait takes such a 404 as "not visible
// yet"; a write whose answer was lost takes a run that has not shown by
// then as never created.
const NotYetVisibleGrace = 30 * time.Second
