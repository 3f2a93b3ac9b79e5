package emulator_test

import (
	"net/http"
	"testing"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestPipelineSchedules(t *testing.T) {
	dev, maintainer := hosted(t, "dev"), hosted(t, "maintainer")
	schedule, resp, err := dev.PipelineSchedules.CreatePipelineSchedule("acme/web", &gitlab.CreatePipelineScheduleOptions{
		Description: ptr("Nightly (Go client)"), Ref: ptr("main"), Cron: ptr("0 2 * * *"), CronTimezone: ptr("Europe/Berlin"), Active: ptr(true),
	})
	dev.decodes(t, resp, err, schedule)
	if schedule.Ref != "refs/heads/main" || schedule.Owner == nil || schedule.Owner.Username != "dev" || schedule.NextRunAt == nil {
		t.Fatalf("schedule %+v", schedule)
	}
	got, resp, err := dev.PipelineSchedules.GetPipelineSchedule("acme/web", schedule.ID)
	dev.decodes(t, resp, err, got)
	list, resp, err := dev.PipelineSchedules.ListPipelineSchedules("acme/web", &gitlab.ListPipelineSchedulesOptions{Scope: ptr(gitlab.PipelineScheduleScopeValue("active"))})
	dev.decodes(t, resp, err, list)

	variable, resp, err := dev.PipelineSchedules.CreatePipelineScheduleVariable("acme/web", schedule.ID, &gitlab.CreatePipelineScheduleVariableOptions{
		Key: ptr("DEPLOY_ENV"), Value: ptr("staging"), VariableType: ptr(gitlab.EnvVariableType),
	})
	dev.decodes(t, resp, err, variable)
	editedVariable, resp, err := dev.PipelineSchedules.EditPipelineScheduleVariable("acme/web", schedule.ID, "DEPLOY_ENV", &gitlab.EditPipelineScheduleVariableOptions{Value: ptr("production")})
	dev.decodes(t, resp, err, editedVariable)
	if editedVariable.Value != "production" {
		t.Fatalf("variable %+v", editedVariable)
	}
	edited, resp, err := dev.PipelineSchedules.EditPipelineSchedule("acme/web", schedule.ID, &gitlab.EditPipelineScheduleOptions{Cron: ptr("30 3 * * 1-5")})
	dev.decodes(t, resp, err, edited)
	withVariables, resp, err := dev.PipelineSchedules.GetPipelineSchedule("acme/web", schedule.ID)
	dev.decodes(t, resp, err, withVariables)
	if len(withVariables.Variables) != 1 {
		t.Fatalf("variables %+v", withVariables.Variables)
	}

	resp, err = dev.PipelineSchedules.RunPipelineSchedule("acme/web", schedule.ID)
	succeeds(t, resp, err, http.StatusCreated)
	pipelines, resp, err := dev.PipelineSchedules.ListPipelinesTriggeredBySchedule("acme/web", schedule.ID, nil)
	dev.decodes(t, resp, err, pipelines)
	if len(pipelines) != 1 || pipelines[0].Source != "schedule" {
		t.Fatalf("pipelines %+v", pipelines)
	}

	_, resp, err = dev.PipelineSchedules.CreatePipelineSchedule("acme/web", &gitlab.CreatePipelineScheduleOptions{Description: ptr("bad"), Ref: ptr("main"), Cron: ptr("not a cron")})
	dev.refused(t, resp, err, http.StatusBadRequest, "syntax is invalid")
	guest := hosted(t, "guest")
	_, resp, err = guest.PipelineSchedules.ListPipelineSchedules("acme/web", nil)
	guest.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	_, resp, err = maintainer.PipelineSchedules.EditPipelineSchedule("acme/web", schedule.ID, &gitlab.EditPipelineScheduleOptions{Description: ptr("not the owner")})
	maintainer.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")

	owned, resp, err := maintainer.PipelineSchedules.TakeOwnershipOfPipelineSchedule("acme/web", schedule.ID)
	maintainer.decodes(t, resp, err, owned)
	if owned.Owner.Username != "maintainer" {
		t.Fatalf("owner %+v", owned.Owner)
	}
	deletedVariable, resp, err := maintainer.PipelineSchedules.DeletePipelineScheduleVariable("acme/web", schedule.ID, "DEPLOY_ENV")
	maintainer.decodes(t, resp, err, deletedVariable)
	_, resp, err = maintainer.PipelineSchedules.DeletePipelineScheduleVariable("acme/web", schedule.ID, "DEPLOY_ENV")
	maintainer.refused(t, resp, err, http.StatusNotFound, "Pipeline Schedule Variable Not Found")
	resp, err = maintainer.PipelineSchedules.DeletePipelineSchedule("acme/web", schedule.ID)
	if err != nil || resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusNoContent {
		t.Fatalf("delete: %v", err)
	}
	_, resp, err = maintainer.PipelineSchedules.GetPipelineSchedule("acme/web", schedule.ID)
	maintainer.refused(t, resp, err, http.StatusNotFound, "Pipeline Schedule Not Found")
}
