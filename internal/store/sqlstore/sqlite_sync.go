package sqlstore

import "fmt"

// sqliteSyncPragma maps OpenOptions.SQLiteSync to the pragma's value.
//
// FULL is the default: in WAL mode it syncs the log at every commit, so a
// write the server acknowledged survives a crash of the machine or the
// filesystem. NORMAL syncs only at checkpoints: a commit survives a crash
// of the process but the last ones before a power cut or a filesystem
// failure may be lost (the fault review lost 4–31 writes of the last
// 0.1–2.9 s). The measured cost of FULL is in docs/server.md "Durability
// on SQLite" (BenchmarkSQLiteSync).
func sqliteSyncPragma(sync string) (string, error) {
	switch sync {
	case "", SyncFull:
		return "FULL", nil
	case SyncNormal:
		return "NORMAL", nil
	}
	return "", fmt.Errorf("SQLite synchronous setting %q: want %s or %s", sync, SyncFull, SyncNormal)
}
