/** The task ids defineTask accepts: each names a fixtures folder. */
export const TASK_ID = /^[A-Za-z0-9_-]+$/;
