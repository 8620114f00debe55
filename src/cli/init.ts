console.error('init: not yet');
process.exitCode = 2;
