//===- main.cpp - linkguard entry point -----------------------------------===//
#include "driver/Main.h"

int main(int argc, char **argv) { return linkguard::driver::linkguardMain(argc, argv); }
