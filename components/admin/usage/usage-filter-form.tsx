import type { ReactNode } from "react";
import type { UsageFilters } from "@/lib/usage/usage-filters";

const inputClass = "mt-1 w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-950";

type Errors = Partial<Record<keyof UsageFilters, string>>;

function Field({ name, label, errors, children }: { name: keyof UsageFilters; label: string; errors: Errors; children: (props: { id: string; name: string; "aria-invalid"?: true; "aria-describedby"?: string; className: string }) => ReactNode }) {
  const error = errors[name];
  const id = `usage-${name}`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {children({ id, name, className: inputClass, ...(error ? { "aria-invalid": true, "aria-describedby": `${id}-error` } : {}) })}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-xs text-danger">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The usage page's filters as a plain GET form: the filters live in the address, so a view can be
 * bookmarked or shared, and the CSV link carries the same query.
 */
export function UsageFilterForm({
  filters,
  range,
  errors,
  agents,
  people,
}: {
  filters: UsageFilters;
  range: { from: string; to: string };
  errors: Errors;
  agents: { id: string; displayName: string }[];
  people: { id: string; name: string }[];
}) {
  return (
    <form method="get" aria-label="Usage filters" className="grid gap-3 rounded-lg border border-slate-200 p-3 sm:grid-cols-3 dark:border-slate-800">
      <Field name="from" label="From (UTC day)" errors={errors}>
        {(props) => <input {...props} type="date" defaultValue={range.from} />}
      </Field>
      <Field name="to" label="To (UTC day)" errors={errors}>
        {(props) => <input {...props} type="date" defaultValue={range.to} />}
      </Field>
      <Field name="groupBy" label="Group by" errors={errors}>
        {(props) => (
          <select {...props} defaultValue={filters.groupBy}>
            <option value="day">Day</option>
            <option value="agent">Agent</option>
            <option value="person">Person</option>
          </select>
        )}
      </Field>
      <Field name="agentId" label="Agent" errors={errors}>
        {(props) => (
          <select {...props} defaultValue={filters.agentId ?? ""}>
            <option value="">All agents</option>
            {agents.map((agent) => (
              <option key={agent.id} value={agent.id}>
                {agent.displayName}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field name="userId" label="Person" errors={errors}>
        {(props) => (
          <select {...props} defaultValue={filters.userId ?? ""}>
            <option value="">Everyone</option>
            {people.map((person) => (
              <option key={person.id} value={person.id}>
                {person.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="flex items-end">
        <button type="submit" className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700">
          Apply filters
        </button>
      </div>
    </form>
  );
}
