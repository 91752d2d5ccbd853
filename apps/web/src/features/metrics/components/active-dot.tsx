/** The point under the pointer, clickable when the chart drills down. */
export function ActiveDot({
  cx,
  cy,
  fill,
  onClick,
}: {
  cx?: number;
  cy?: number;
  fill?: string;
  onClick: () => void;
}) {
  if (cx === undefined || cy === undefined) return null;
  return <circle cx={cx} cy={cy} r={5} fill={fill} className="cursor-pointer" onClick={onClick} />;
}
