#pragma once
#include "model/planted.h"
