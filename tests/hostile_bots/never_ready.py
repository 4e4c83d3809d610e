"""Never says it is ready."""

import time

time.sleep(3600)
