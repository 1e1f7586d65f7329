#include "tests/support/RecastPolyMesh.h"
