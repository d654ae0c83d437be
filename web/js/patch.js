// patch.js — a reveal's view_patch applied to the view we hold
// (proto/table.md §5.6; the server asks nothing else of us once hello's caps
// has "view_patch"). A patch is a list of operations, in order:
// [path, value] sets (adds an object member, or appends at an array's
// length), [path] removes; a path is keys and indexes from the view's root,
// [] the root itself. Returns the patched view (a new object; the one given
// is not touched), or null when the patch is not one: the caller then asks
// table_sync, which resends the view whole.

const DEPTH_MAX = 32;

const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const own = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

function op1(root, op) {
	if (!Array.isArray(op) || (op.length !== 1 && op.length !== 2)) return undefined;
	const [path] = op;
	const set = op.length === 2;
	if (!Array.isArray(path) || path.length > DEPTH_MAX) return undefined;
	if (path.length === 0) return set ? op[1] : undefined;
	let at = root;
	for (let i = 0; i < path.length - 1; i++) {
		const k = path[i];
		if (typeof k === 'string' && isObj(at) && own(at, k)) at = at[k];
		else if (Number.isInteger(k) && Array.isArray(at) && k >= 0 && k < at.length) at = at[k];
		else return undefined;
	}
	const last = path[path.length - 1];
	// No view has such a member: set, it would replace the object's prototype.
	if (last === '__proto__') return undefined;
	if (typeof last === 'string' && isObj(at)) {
		if (set) at[last] = op[1];
		else if (own(at, last)) delete at[last];
		else return undefined;
		return root;
	}
	if (!Number.isInteger(last) || !Array.isArray(at) || last < 0) return undefined;
	if (set && last <= at.length) at[last] = op[1];
	else if (!set && last < at.length) at.splice(last, 1);
	else return undefined;
	return root;
}

export function applyViewPatch(view, patch) {
	if (!Array.isArray(patch)) return null;
	let root = view === undefined ? null : JSON.parse(JSON.stringify(view));
	for (const op of patch) {
		root = op1(root, op);
		if (root === undefined) return null;
	}
	return root;
}
