// Package interrupt stops a verb on SIGINT or SIGTERM: the verb's context
// is cancelled with the signal as its cause, outputs under way finish and
// no new one starts, and the process exits 1 within Grace if the verb has
// not returned by then (Stopper). A verb that lets what is under way
// finish by itself (serve) takes Finishing instead: the first signal
// cancels, a second kills. It owns the words of that stop on stderr; it
// never cuts a write half way, and never handles signals it was not asked
// to watch (apply keeps its own).
package interrupt
