// Threads that help a loader's own thread (page readers, a table read ahead) run at a lower
// priority than it: on two cores the loader's thread, which turns the rows into the model,
// is the one the load waits for, and the helpers have only to keep ahead of it. At the same
// priority the scheduler shares a core between it and a helper with work in hand, and the loader's
// thread waits its turn. (A PageWarmer is not one: it must stay ahead of the thread it serves, and
// its work is short.)
#pragma once

namespace profdiff {

// Lowers the calling thread's priority: its nice value 10 higher, at most 19 (Linux, where a nice
// value is a thread's own; elsewhere nothing). Raising one's nice value needs no privilege; a
// failure changes nothing and is ignored.
void RunAsHelperThread();

}  // namespace profdiff
