package install

// PlanRefresh plans bringing what install compiled from the warrant into
// .claude/settings.json — the sandbox, its session env, the deny rules —
// in step with the loops as they are now, for `gitwarrant compile`
// (docs/install.md#the-sandbox). It touches only what this clone's install
// recorded writing: a clone where install wrote no sandbox (or ran with
// --no-sandbox) gets no change, and a sandbox the person edited is kept,
// as install keeps it.
func PlanRefresh(root string, sb *Sandbox) (*Plan, error) {
	p := &Plan{Root: root, sandbox: sb}
	if sb == nil {
		return p, nil
	}
	st := p.state()
	if st == nil || len(st.Sandbox) == 0 {
		return p, nil
	}
	d, existed, err := loadJSON(root, SettingsPath)
	if err != nil || !existed {
		return p, err
	}
	orig := d.data
	if d, _, err = p.editGuards(d, true); err != nil {
		return nil, err
	}
	p.addJSON(SettingsPath, orig, true, d.data)
	return p, nil
}
