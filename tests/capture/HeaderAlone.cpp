#include "navbench_capture.h" // the header alone: it must bring everything it uses
