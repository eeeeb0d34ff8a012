#pragma once
#include "agent/agent.h"
