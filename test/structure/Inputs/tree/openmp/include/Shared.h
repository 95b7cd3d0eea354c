#pragma once
int shared();
