#!/usr/bin/env bash
# Prints the world file the client benchmarks seed: one deal of ROWS rows
# (sections of 21 rows: the section and 20 requests with bodies, due
# dates, assignees, and a few answers) and one API key, KEY.
#
#   ROWS=2200 KEY=dlk_… scripts/bench-world.sh >world.yaml
#
# Used by scripts/bench-client.sh and scripts/bench-ls.sh.
set -euo pipefail
ROWS=${ROWS:-2200}
key=${KEY:?KEY: the API key secret the world should hold}
cat <<YAML
organizations:
  - {key: acme,   name: Acme Capital}
  - {key: target, name: Target Co}
users:
  - {key: alice, name: Alice Sato, email: alice@target.example, organization: target}
  - {key: bob,   name: Bob Reyes,  email: bob@acme.example,     organization: acme}
deals:
  - key: big
    name: Project Big
    codename: Big
    timezone: Europe/London
    parties:
      - {key: sell, side: sell, label: Target Co, owner: true, organization: target}
      - {key: buy,  side: buy,  label: null,      organization: acme}
    people:
      - {user: alice, party: sell, access: admin,  role: principal, project_admin: true, joined: true}
      - {user: bob,   party: buy,  access: editor, role: counsel, joined: true}
    requests:
YAML
awk -v rows="$ROWS" 'BEGIN {
	split("legal tax accounting business human_resources technology", cat, " ")
	split("low medium high", pri, " ")
	split("open partial complete", st, " ")
	n = 0
	for (s = 1; n < rows; s++) {
		printf "      - {number: \"%d\", kind: section, title: \"Workstream %d\"}\n", s, s; n++
		for (i = 1; i <= 20 && n < rows; i++) {
			k = s * 20 + i
			printf "      - number: \"%d.%d\"\n", s, i
			printf "        title: \"Request %d.%d: copies of every agreement of kind %d, with amendments\"\n", s, i, k % 97
			printf "        body: \"Provide the signed copies, the schedules and any side letters. Flag anything that changes control, pricing or exclusivity. Ref %d.\"\n", k
			printf "        priority: %s\n        category: %s\n        status: %s\n", pri[k % 3 + 1], cat[k % 6 + 1], st[k % 3 + 1]
			printf "        due_date: 2027-%02d-%02d\n", k % 12 + 1, k % 28 + 1
			if (k % 2) printf "        assignee: bob\n"
			if (k % 7 == 0) printf "        messages:\n          - {author: bob, text: \"Attached the agreements for %d.%d.\", partial: true}\n", s, i
			n++
		}
	}
}'
cat <<YAML
keys:
  - {key: bench, user: alice, name: bench, access: write, secret: $key}
YAML
