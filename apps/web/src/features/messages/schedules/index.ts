/** Messages > Schedules; the Messages screen composes it. */
export { SchedulesView } from './components/schedules-view';
