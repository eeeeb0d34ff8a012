#pragma once
#include "common/log.h"
#include "model/planted.h"
